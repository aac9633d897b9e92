import CSQLite

/// The action an authorizer is asked about (`SQLITE_INSERT`, `SQLITE_ATTACH`, …: sqlite3.h's
/// "Authorizer Action Codes"); the comment of each says what ``AuthorizerRequest/argument1``
/// and ``AuthorizerRequest/argument2`` hold for it.
package struct AuthorizerAction: RawRepresentable, Hashable, Sendable {
    /// The code as SQLite passes it to the callback.
    package let rawValue: Int32

    /// The action with this code.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SQLITE_CREATE_INDEX`: index name, table name.
    package static let createIndex = AuthorizerAction(rawValue: SQLITE_CREATE_INDEX)
    /// `SQLITE_CREATE_TABLE`: table name.
    package static let createTable = AuthorizerAction(rawValue: SQLITE_CREATE_TABLE)
    /// `SQLITE_CREATE_TEMP_INDEX`: index name, table name.
    package static let createTempIndex = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_INDEX)
    /// `SQLITE_CREATE_TEMP_TABLE`: table name.
    package static let createTempTable = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_TABLE)
    /// `SQLITE_CREATE_TEMP_TRIGGER`: trigger name, table name.
    package static let createTempTrigger = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_TRIGGER)
    /// `SQLITE_CREATE_TEMP_VIEW`: view name.
    package static let createTempView = AuthorizerAction(rawValue: SQLITE_CREATE_TEMP_VIEW)
    /// `SQLITE_CREATE_TRIGGER`: trigger name, table name.
    package static let createTrigger = AuthorizerAction(rawValue: SQLITE_CREATE_TRIGGER)
    /// `SQLITE_CREATE_VIEW`: view name.
    package static let createView = AuthorizerAction(rawValue: SQLITE_CREATE_VIEW)
    /// `SQLITE_DELETE`: table name.
    package static let delete = AuthorizerAction(rawValue: SQLITE_DELETE)
    /// `SQLITE_DROP_INDEX`: index name, table name.
    package static let dropIndex = AuthorizerAction(rawValue: SQLITE_DROP_INDEX)
    /// `SQLITE_DROP_TABLE`: table name.
    package static let dropTable = AuthorizerAction(rawValue: SQLITE_DROP_TABLE)
    /// `SQLITE_DROP_TEMP_INDEX`: index name, table name.
    package static let dropTempIndex = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_INDEX)
    /// `SQLITE_DROP_TEMP_TABLE`: table name.
    package static let dropTempTable = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_TABLE)
    /// `SQLITE_DROP_TEMP_TRIGGER`: trigger name, table name.
    package static let dropTempTrigger = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_TRIGGER)
    /// `SQLITE_DROP_TEMP_VIEW`: view name.
    package static let dropTempView = AuthorizerAction(rawValue: SQLITE_DROP_TEMP_VIEW)
    /// `SQLITE_DROP_TRIGGER`: trigger name, table name.
    package static let dropTrigger = AuthorizerAction(rawValue: SQLITE_DROP_TRIGGER)
    /// `SQLITE_DROP_VIEW`: view name.
    package static let dropView = AuthorizerAction(rawValue: SQLITE_DROP_VIEW)
    /// `SQLITE_INSERT`: table name.
    package static let insert = AuthorizerAction(rawValue: SQLITE_INSERT)
    /// `SQLITE_PRAGMA`: pragma name, its value (nil when the pragma is read).
    package static let pragma = AuthorizerAction(rawValue: SQLITE_PRAGMA)
    /// `SQLITE_READ`: table name, column name.
    package static let read = AuthorizerAction(rawValue: SQLITE_READ)
    /// `SQLITE_SELECT`: no arguments.
    package static let select = AuthorizerAction(rawValue: SQLITE_SELECT)
    /// `SQLITE_TRANSACTION`: the operation (`BEGIN`, `COMMIT`, `ROLLBACK`).
    package static let transaction = AuthorizerAction(rawValue: SQLITE_TRANSACTION)
    /// `SQLITE_UPDATE`: table name, column name.
    package static let update = AuthorizerAction(rawValue: SQLITE_UPDATE)
    /// `SQLITE_ATTACH`: the file name, when it is a literal.
    package static let attach = AuthorizerAction(rawValue: SQLITE_ATTACH)
    /// `SQLITE_DETACH`: the schema name.
    package static let detach = AuthorizerAction(rawValue: SQLITE_DETACH)
    /// `SQLITE_ALTER_TABLE`: schema name, table name.
    package static let alterTable = AuthorizerAction(rawValue: SQLITE_ALTER_TABLE)
    /// `SQLITE_REINDEX`: index name.
    package static let reindex = AuthorizerAction(rawValue: SQLITE_REINDEX)
    /// `SQLITE_ANALYZE`: table name.
    package static let analyze = AuthorizerAction(rawValue: SQLITE_ANALYZE)
    /// `SQLITE_CREATE_VTABLE`: table name, module name.
    package static let createVirtualTable = AuthorizerAction(rawValue: SQLITE_CREATE_VTABLE)
    /// `SQLITE_DROP_VTABLE`: table name, module name.
    package static let dropVirtualTable = AuthorizerAction(rawValue: SQLITE_DROP_VTABLE)
    /// `SQLITE_FUNCTION`: nil, function name.
    package static let function = AuthorizerAction(rawValue: SQLITE_FUNCTION)
    /// `SQLITE_SAVEPOINT`: the operation (`BEGIN`, `RELEASE`, `ROLLBACK`), savepoint name.
    package static let savepoint = AuthorizerAction(rawValue: SQLITE_SAVEPOINT)
    /// `SQLITE_RECURSIVE`: no arguments.
    package static let recursive = AuthorizerAction(rawValue: SQLITE_RECURSIVE)

    /// The actions that change a schema's content or definition; for each, the request's
    /// ``AuthorizerRequest/database`` names the schema written (for `ALTER TABLE`, argument 1).
    package static let writes: Set<AuthorizerAction> = [
        .createIndex, .createTable, .createTrigger, .createView, .delete, .dropIndex, .dropTable,
        .dropTrigger, .dropView, .insert, .update, .alterTable, .reindex, .analyze,
        .createVirtualTable, .dropVirtualTable,
    ]
}
