import SQLiteCore

/// Keeps the bundled database attached: an authorizer that refuses `DETACH` of its schema,
/// so SQL on the connection cannot detach it and attach the same file writable under the
/// same name.
enum DetachGuard {
    /// Installs the authorizer on `connection` (replacing any other authorizer).
    static func install(on connection: Connection, protecting name: String) throws {
        let protected = name.lowercased()
        try connection.setAuthorizer { request in
            request.action == .detach && request.argument1?.lowercased() == protected ? .deny : .allow
        }
    }
}
