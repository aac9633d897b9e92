import CSQLite

/// An authorizer's answer.
package enum AuthorizerDecision: Sendable {
    /// Let the action happen.
    case allow
    /// Refuse: the statement fails to prepare with `SQLITE_AUTH`.
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
