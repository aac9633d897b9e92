/// One question SQLite's authorizer asks while a statement is prepared
/// (`sqlite3_set_authorizer`): may this action happen?
package struct AuthorizerRequest: Sendable {
    /// What is asked about.
    package let action: AuthorizerAction
    /// The first argument (the table for writes, the file for ATTACH, the pragma…).
    package let argument1: String?
    /// The second argument (the column for reads, the function name, …).
    package let argument2: String?
    /// The schema (`main`, `temp`, an attached name), when the action has one.
    package let database: String?
    /// The innermost trigger or view responsible, when there is one.
    package let trigger: String?
}
