import SQLiteCore

/// User rows that refer to shipped rows (`shipyard_references`) are never silently left
/// dangling when the shipped data changes.
///
/// ```sql
/// CREATE TABLE shipyard_references (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
///                                   shipped_table TEXT NOT NULL, shipped_column TEXT NOT NULL);
/// INSERT INTO shipyard_references VALUES ('favourite', 'food_pk', 'food', 'pk');
/// ```
///
/// ```swift
/// for dangling in try database.danglingReferences() {
///     print(dangling.reference.table, dangling.rowKey, "refers to a removed", dangling.reference.shippedTable)
/// }
/// ```
///
/// When the user database also syncs, each dangling reference is recorded as a row of
/// `shipyard_sync_conflicts` of kind `dangling-reference` whenever the shipped data in effect
/// changes: at an open that attaches other shipped data than the last open (an update installed
/// over the air, a new app version) and after ``switchToNewestShippedData()``.
extension LayeredDatabase {
    /// The user rows whose declared reference names a shipped row that the attached shipped data
    /// does not hold (none when nothing is declared).
    ///
    /// - Throws: ``SyncDeclarationProblem`` when a declaration is invalid; `SQLiteError`.
    public func danglingReferences() throws -> [DanglingReference] {
        let declarations = try SyncDeclarations.read(from: connection)
        return try DanglingReferences.find(declarations.references, shippedSchema: bundleName, on: connection)
    }

    /// Records the dangling references as conflicts when the shipped data in effect is not the
    /// one last checked (see the extension's documentation).
    func recordDanglingReferencesIfShippedDataChanged() throws {
        try DanglingReferences.recordIfShippedDataChanged(shippedSchema: bundleName, on: connection)
    }
}
