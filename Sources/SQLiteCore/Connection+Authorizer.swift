import CSQLite

extension Connection {
    /// Installs `authorizer` (replacing any earlier one), or removes it with nil. It runs
    /// while statements are prepared, never while they step, so it costs a hot insert
    /// loop nothing.
    package func setAuthorizer(_ authorizer: ((AuthorizerRequest) -> AuthorizerDecision)?) throws {
        let database = try openHandle()
        guard let authorizer else {
            sqlite3_set_authorizer(database, nil, nil)
            authorizerBox = nil
            return
        }
        let box = AuthorizerBox(authorizer)
        authorizerBox = box
        sqlite3_set_authorizer(
            database,
            { userData, action, a1, a2, db, trigger in
                guard let userData else { return SQLITE_OK }
                let box = Unmanaged<AuthorizerBox>.fromOpaque(userData).takeUnretainedValue()
                let request = AuthorizerRequest(
                    action: AuthorizerAction(rawValue: action), argument1: a1.map { String(cString: $0) },
                    argument2: a2.map { String(cString: $0) }, database: db.map { String(cString: $0) },
                    trigger: trigger.map { String(cString: $0) })
                return box.authorizer(request).code
            }, Unmanaged.passUnretained(box).toOpaque())
    }
}

/// Holds the Swift closure the C callback calls; retained by the connection.
final class AuthorizerBox {
    let authorizer: (AuthorizerRequest) -> AuthorizerDecision
    init(_ authorizer: @escaping (AuthorizerRequest) -> AuthorizerDecision) { self.authorizer = authorizer }
}
