import CSQLite

/// Keeps the bundled database attached: an authorizer that refuses `DETACH` of its schema,
/// so SQL on the connection cannot detach it and attach the same file writable under the
/// same name.
enum DetachGuard {
    /// The protected schema name, referenced by the C callback.
    final class Context {
        let lowercasedName: String
        init(name: String) { lowercasedName = name.lowercased() }
    }

    /// Installs the authorizer on `connection` (replacing any other authorizer).
    static func install(on connection: Connection, protecting name: String) {
        guard let handle = connection.handle else { return }
        let context = Context(name: name)
        connection.callbackContexts.append(context)
        sqlite3_set_authorizer(handle, { userData, action, argument, _, _, _ in
            guard action == SQLITE_DETACH, let userData, let argument else { return SQLITE_OK }
            let context = Unmanaged<Context>.fromOpaque(userData).takeUnretainedValue()
            return String(cString: argument).lowercased() == context.lowercasedName ? SQLITE_DENY : SQLITE_OK
        }, Unmanaged.passUnretained(context).toOpaque())
    }
}
