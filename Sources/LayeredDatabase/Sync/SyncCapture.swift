import SQLiteCore
import SyncProtocol

/// Installs and refreshes the capture of a user database: the local tables and, per synced
/// table, the triggers that queue every write in `shipyard_sync_outbox`.
///
/// `dbgen` installs it when it builds a user template whose script declares synced tables, so
/// the capture is there from the first launch; ``UserDatabaseMigrator`` refreshes it after each
/// step, so a migrated table (an added column) is captured at once; the sync refreshes it before
/// each sync. A refresh changes nothing when the triggers already match the declarations (no
/// schema change, so no connection re-prepares its statements).
///
/// ```swift
/// let declarations = try SyncCapture.refresh(on: connection)
/// ```
public enum SyncCapture {
    /// Reads and validates the declarations of `connection`'s main database and makes the
    /// capture match them, in one savepoint (all or nothing): creates the local tables when
    /// tables sync, and replaces the capture triggers when they differ from those the
    /// declarations call for. With nothing declared, a database that synced before loses its
    /// capture triggers (its local tables and what they hold stay); one that never synced is
    /// left as it is. Triggers named `shipyard_sync_…` are the capture's.
    ///
    /// - Returns: The declarations.
    /// - Throws: ``SyncDeclarationProblem`` (nothing changed), or `SQLiteError`.
    @discardableResult
    public static func refresh(on connection: Connection) throws -> SyncDeclarations {
        let declarations = try SyncDeclarations.read(from: connection)
        // A database that never synced is left alone, whatever triggers it has.
        guard try declarations.declaresSync || TableShape.read(SyncLocalTables.state, on: connection) != nil else {
            return declarations
        }
        let wanted = declarations.declaresSync ? CaptureTriggers.triggers(for: declarations.schema) : []
        let installed = try installedTriggers(on: connection)
        let tablesMissing = try declarations.declaresSync && !hasLocalTables(connection)
        guard tablesMissing || Set(wanted) != Set(installed) else { return declarations }
        try connection.execute("SAVEPOINT shipyard_sync_refresh")
        do {
            if declarations.declaresSync { try connection.execute(SyncLocalTables.creation) }
            if Set(wanted) != Set(installed) {
                for trigger in installed {
                    try connection.execute("DROP TRIGGER IF EXISTS main.\(SQLIdentifier.quote(trigger.name))")
                }
                for trigger in wanted { try connection.execute(trigger.sql) }
            }
            try connection.execute("RELEASE shipyard_sync_refresh")
        } catch {
            try? connection.execute("ROLLBACK TO shipyard_sync_refresh")
            try? connection.execute("RELEASE shipyard_sync_refresh")
            throw error
        }
        return declarations
    }

    /// True when the installed capture triggers are exactly those the declarations call for
    /// (what the sync checks before each sync).
    ///
    /// - Throws: ``SyncDeclarationProblem``, or `SQLiteError`.
    public static func isCurrent(on connection: Connection) throws -> Bool {
        let declarations = try SyncDeclarations.read(from: connection)
        let wanted = declarations.declaresSync ? CaptureTriggers.triggers(for: declarations.schema) : []
        return try Set(wanted) == Set(installedTriggers(on: connection))
            && (!declarations.declaresSync || hasLocalTables(connection))
    }

    /// The capture triggers in the main database (name and statement).
    static func installedTriggers(on connection: Connection) throws -> [CaptureTriggers.Trigger] {
        try connection.query(
            "SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ? COLLATE NOCASE",
            [.integer(Int64(CaptureTriggers.prefix.utf8.count)), .text(CaptureTriggers.prefix)]
        ).map { CaptureTriggers.Trigger(name: $0[0].shellText, sql: $0[1].shellText) }
    }

    /// True when every local table exists.
    private static func hasLocalTables(_ connection: Connection) throws -> Bool {
        let names = [
            SyncLocalTables.state, SyncLocalTables.outbox, SyncLocalTables.inflight, SyncLocalTables.conflicts,
        ]
        let count = try connection.scalar(
            "SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name IN (?, ?, ?, ?)",
            names.map { .text($0) })
        return count == .integer(Int64(names.count))
    }
}
