#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// Finds the user rows that refer to shipped rows which no longer exist, and records them as
/// conflicts (`dangling-reference`) when the database syncs.
enum DanglingReferences {
    /// The dangling references of `references` against the shipped database attached as
    /// `shippedSchema`. A shipped table or column that does not exist leaves every non-NULL
    /// reference to it dangling.
    static func find(
        _ references: [ShippedReference], shippedSchema: String, on connection: Connection
    ) throws -> [DanglingReference] {
        var found: [DanglingReference] = []
        let quote = SQLIdentifier.quote
        for reference in references {
            guard let user = try TableShape.read(reference.table, on: connection) else { continue }
            let key = user.primaryKey.count == 1 ? quote(user.primaryKey[0].name) : "rowid"
            let column = quote(reference.column)
            let shippedColumns = try connection.query(
                "SELECT name FROM pragma_table_info(?, ?)", [.text(reference.shippedTable), .text(shippedSchema)]
            ).map { $0[0].shellText.lowercased() }
            let exists =
                shippedColumns.contains(reference.shippedColumn.lowercased())
                ? " AND NOT EXISTS (SELECT 1 FROM \(quote(shippedSchema)).\(quote(reference.shippedTable)) AS s "
                    + "WHERE s.\(quote(reference.shippedColumn)) = u.\(column))"
                : ""
            let sql =
                "SELECT u.\(key), u.\(column) FROM main.\(quote(user.name)) AS u WHERE u.\(column) IS NOT NULL\(exists)"
            for row in try connection.query(sql) {
                found.append(DanglingReference(reference: reference, rowKey: row[0], value: row[1]))
            }
        }
        return found
    }

    /// When the database syncs and the shipped data in effect (its `user_version`) is not the
    /// one last checked: records each dangling reference as a conflict row of kind
    /// `dangling-reference` (unless an identical row is there already) and remembers the
    /// version, in one transaction. Returns the references found (nil when nothing was checked).
    @discardableResult
    static func recordIfShippedDataChanged(shippedSchema: String, on connection: Connection) throws
        -> [DanglingReference]?
    {
        guard try TableShape.read(SyncLocalTables.state, on: connection) != nil,
            try TableShape.read(SyncDeclarations.referencesCatalog, on: connection) != nil
        else { return nil }
        let version = try connection.userVersion(schema: shippedSchema)
        let checked = try connection.scalar("SELECT references_checked FROM main.shipyard_sync_state")
        guard checked != .integer(version) else { return nil }
        return try connection.inTransaction {
            let declarations = try SyncDeclarations.read(from: connection)
            let found = try find(declarations.references, shippedSchema: shippedSchema, on: connection)
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            for dangling in found {
                try connection.execute(
                    """
                    INSERT INTO main.shipyard_sync_conflicts
                        (table_name, row_key, column_name, kind, device_value, server_value, detected_at)
                    SELECT ?, ?, ?, 'dangling-reference', ?, NULL, ? WHERE NOT EXISTS (
                        SELECT 1 FROM main.shipyard_sync_conflicts WHERE kind = 'dangling-reference'
                        AND table_name = ? AND row_key IS ? AND column_name = ? AND device_value IS ?)
                    """,
                    [
                        .text(dangling.reference.table), dangling.rowKey, .text(dangling.reference.column),
                        dangling.value, .integer(now), .text(dangling.reference.table), dangling.rowKey,
                        .text(dangling.reference.column), dangling.value,
                    ])
            }
            try connection.execute("UPDATE main.shipyard_sync_state SET references_checked = ?", [.integer(version)])
            return found
        }
    }
}
