import CSQLite

/// One question SQLite's authorizer asks while a statement is prepared
/// (`sqlite3_set_authorizer`): may this action happen?
public struct AuthorizerRequest: Sendable {
    /// The action code (`SQLITE_ATTACH`, `SQLITE_INSERT`, `SQLITE_FUNCTION`, …).
    public let action: Int32
    /// The first argument (the table for writes, the file for ATTACH, the function name…).
    public let argument1: String?
    /// The second argument (the column for reads, …).
    public let argument2: String?
    /// The schema (`main`, `temp`, an attached name), when the action has one.
    public let database: String?
    /// The innermost trigger or view responsible, when there is one.
    public let trigger: String?
}

/// An authorizer's answer.
public enum AuthorizerDecision: Sendable {
    /// Let the action happen.
    case allow
    /// Refuse: the statement fails to prepare with "not authorized".
    case deny
    /// Compile the statement but treat the column read as NULL / skip the action.
    case ignore

    var code: Int32 {
        switch self {
        case .allow: return SQLITE_OK
        case .deny: return SQLITE_DENY
        case .ignore: return SQLITE_IGNORE
        }
    }
}

extension Connection {
    /// Installs `authorizer` (replacing any earlier one), or removes it with nil. It runs
    /// while statements are prepared, never while they step, so it costs a hot insert
    /// loop nothing.
    public func setAuthorizer(_ authorizer: ((AuthorizerRequest) -> AuthorizerDecision)?) throws {
        let database = try openHandle()
        guard let authorizer else {
            sqlite3_set_authorizer(database, nil, nil)
            authorizerBox = nil
            return
        }
        let box = AuthorizerBox(authorizer)
        authorizerBox = box
        sqlite3_set_authorizer(database, { userData, action, a1, a2, db, trigger in
            guard let userData else { return SQLITE_OK }
            let box = Unmanaged<AuthorizerBox>.fromOpaque(userData).takeUnretainedValue()
            let request = AuthorizerRequest(
                action: action, argument1: a1.map { String(cString: $0) }, argument2: a2.map { String(cString: $0) },
                database: db.map { String(cString: $0) }, trigger: trigger.map { String(cString: $0) })
            return box.authorizer(request).code
        }, Unmanaged.passUnretained(box).toOpaque())
    }
}

/// Holds the Swift closure the C callback calls; retained by the connection.
final class AuthorizerBox {
    let authorizer: (AuthorizerRequest) -> AuthorizerDecision
    init(_ authorizer: @escaping (AuthorizerRequest) -> AuthorizerDecision) { self.authorizer = authorizer }
}
