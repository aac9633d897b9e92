import CSQLite

/// The action codes of ``AuthorizerRequest/action`` (`SQLITE_INSERT`, `SQLITE_ATTACH`, …), so
/// that an authorizer can be written without importing the C module.
public enum AuthorizerAction {
    /// `SQLITE_ATTACH`: ``AuthorizerRequest/argument1`` is the file name when it is a literal.
    public static let attach = SQLITE_ATTACH
    /// `SQLITE_FUNCTION`: ``AuthorizerRequest/argument2`` is the function's name.
    public static let function = SQLITE_FUNCTION
    /// `SQLITE_PRAGMA`: argument 1 is the pragma, argument 2 its value (nil when read).
    public static let pragma = SQLITE_PRAGMA
    /// `SQLITE_ALTER_TABLE`: argument 1 is the schema, argument 2 the table.
    public static let alterTable = SQLITE_ALTER_TABLE

    /// The actions that change a schema's content or definition; for each, the request's
    /// ``AuthorizerRequest/database`` names the schema written (for `ALTER TABLE`, argument 1).
    public static let writes: Set<Int32> = [
        SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
        SQLITE_DELETE, SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
        SQLITE_INSERT, SQLITE_UPDATE, SQLITE_ALTER_TABLE, SQLITE_REINDEX, SQLITE_ANALYZE,
        SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE,
    ]
}
