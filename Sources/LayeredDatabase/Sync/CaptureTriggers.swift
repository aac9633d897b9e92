import SQLiteCore
import SyncProtocol

/// The triggers that capture every write to a synced table into `shipyard_sync_outbox`, by
/// whatever connection makes it, as SQL that SQLite 3.24 runs (UPSERT; no `unixepoch()`, no
/// `RETURNING`), and the same with `recursive_triggers` on or off (Apple's builds turn it on):
/// they write only the outbox, with an upsert that never deletes, so no trigger fires another.
///
/// Per synced table:
/// - `AFTER INSERT`: the row cell (`op` 1) and, for each counter column, its value as an
///   increment;
/// - `AFTER UPDATE OF c` for each synced column, when `NEW.c IS NOT OLD.c` and the key is
///   unchanged: the cell (`op` 2), or for a counter the increment `NEW.c - OLD.c`. One trigger
///   per column, so SQLite runs only those of the columns an UPDATE sets;
/// - `AFTER UPDATE OF key`, when the key changed: a delete of the old key and an insert of the new;
/// - `AFTER DELETE`: the row cell (`op` 0), and the row's column entries removed.
///
/// Each skips the sync's own writes (`applying` = 1). An entry's HLC is
/// `max((now_ms + offset_ms) × 65536, hlc_max + 1)`, now from `julianday('now')`, and an upsert
/// keeps `max(new, old + 1)`, so a cell's entries only move forward. The triggers read the state
/// row but never write it (a captured write changes one more page, not two): `hlc_max` is raised
/// to the batch's greatest HLC when a batch is frozen.
enum CaptureTriggers {
    /// The prefix of every capture trigger's name: a refresh drops what has it.
    static let prefix = "shipyard_sync_"

    /// The HLC of an edit now, read from the state row of the statement's FROM.
    static let hlc =
        "max((CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER) + offset_ms) * 65536, hlc_max + 1)"

    /// One trigger: its name and its `CREATE TRIGGER` statement (as `sqlite_master.sql` keeps it).
    struct Trigger: Hashable {
        var name: String
        var sql: String
    }

    /// The triggers of every table of `schema`, in a stable order.
    static func triggers(for schema: SyncSchema) -> [Trigger] {
        var triggers: [Trigger] = []
        var names: Set<String> = []
        func add(_ name: String, fallback: String, _ body: (String) -> String) {
            var chosen = prefix + name
            if names.contains(chosen.lowercased()) { chosen = prefix + fallback }
            names.insert(chosen.lowercased())
            triggers.append(Trigger(name: chosen, sql: body(SQLIdentifier.quote(chosen))))
        }
        for (tableIndex, table) in schema.tables.enumerated() {
            let sql = TableTriggerSQL(table: table)
            add("insert_\(table.name)", fallback: "insert_\(tableIndex)", sql.insert)
            add("delete_\(table.name)", fallback: "delete_\(tableIndex)", sql.delete)
            add("rekey_\(table.name)", fallback: "rekey_\(tableIndex)", sql.rekey)
            for (columnIndex, column) in table.columns.enumerated() {
                add(
                    "update_\(table.name)_\(column.name)", fallback: "update_\(tableIndex)_\(columnIndex)",
                    { sql.update(column, name: $0) })
            }
        }
        return triggers
    }
}

/// The SQL of one table's triggers.
private struct TableTriggerSQL {
    let table: SyncSchema.Table

    private var quotedTable: String { SQLIdentifier.quote(table.name) }
    private var tableLiteral: String { SQLIdentifier.quoteLiteral(table.name) }
    private var key: String { SQLIdentifier.quote(table.keyColumn) }
    private var counters: [SyncSchema.Column] { table.columns.filter { $0.rule == .counter } }
    private static let outbox = "shipyard_sync_outbox (tbl, pk, col, op, delta, hlc)"
    private static let conflictTarget = "ON CONFLICT (tbl, pk, col) DO UPDATE SET"
    private static let nextHLC = "hlc = max(excluded.hlc, hlc + 1)"
    private static let notApplying = "(SELECT applying FROM shipyard_sync_state) = 0"

    /// The upsert of the row cell of `row`'s key (`NEW` or `OLD`) with `op` 1 or 0.
    private func rowCell(_ row: String, exists: Bool) -> String {
        let op = exists ? 1 : 0
        return """
            INSERT INTO \(Self.outbox) SELECT \(tableLiteral), \(row).\(key), '', \(op), NULL, \(CaptureTriggers.hlc)
              FROM shipyard_sync_state WHERE applying = 0
              \(Self.conflictTarget) op = \(op), delta = NULL, \(Self.nextHLC);
            """
    }

    /// The upsert adding `delta` (SQL) to counter `column` of `NEW`'s key.
    private func increment(_ column: SyncSchema.Column, by delta: String, when condition: String = "") -> String {
        """
        INSERT INTO \(Self.outbox) SELECT \(tableLiteral), NEW.\(key), \(SQLIdentifier.quoteLiteral(column.name)), 3, \(delta), \(CaptureTriggers.hlc)
          FROM shipyard_sync_state WHERE applying = 0\(condition)
          \(Self.conflictTarget) op = 3, delta = coalesce(delta, 0) + excluded.delta, \(Self.nextHLC);
        """
    }

    /// A counter's value as an integer (NULL counts as 0).
    private func counterValue(_ row: String, _ column: SyncSchema.Column) -> String {
        "coalesce(CAST(\(row).\(SQLIdentifier.quote(column.name)) AS INTEGER), 0)"
    }

    /// The row cell of the new row and each counter's value as an increment.
    private var insertBody: String {
        ([rowCell("NEW", exists: true)] + counters.map { increment($0, by: counterValue("NEW", $0)) })
            .joined(separator: "\n")
    }

    /// The row cell of the old key deleted, and its column entries removed.
    private var deleteBody: String {
        rowCell("OLD", exists: false) + "\n"
            + "DELETE FROM shipyard_sync_outbox WHERE tbl = \(tableLiteral) AND pk = OLD.\(key) AND col <> '';"
    }

    func insert(name: String) -> String {
        "CREATE TRIGGER \(name) AFTER INSERT ON \(quotedTable) BEGIN\n\(insertBody)\nEND"
    }

    func delete(name: String) -> String {
        "CREATE TRIGGER \(name) AFTER DELETE ON \(quotedTable) WHEN \(Self.notApplying) BEGIN\n\(deleteBody)\nEND"
    }

    func rekey(name: String) -> String {
        """
        CREATE TRIGGER \(name) AFTER UPDATE OF \(key) ON \(quotedTable) WHEN NEW.\(key) IS NOT OLD.\(key) AND \(Self.notApplying) BEGIN
        \(deleteBody)
        \(insertBody)
        END
        """
    }

    func update(_ column: SyncSchema.Column, name: String) -> String {
        let quoted = SQLIdentifier.quote(column.name)
        let body =
            column.rule == .counter
            ? increment(column, by: "\(counterValue("NEW", column)) - \(counterValue("OLD", column))")
            : """
            INSERT INTO \(Self.outbox) SELECT \(tableLiteral), NEW.\(key), \(SQLIdentifier.quoteLiteral(column.name)), 2, NULL, \(CaptureTriggers.hlc)
              FROM shipyard_sync_state WHERE applying = 0
              \(Self.conflictTarget) op = 2, delta = NULL, \(Self.nextHLC);
            """
        return """
            CREATE TRIGGER \(name) AFTER UPDATE OF \(quoted) ON \(quotedTable) WHEN NEW.\(quoted) IS NOT OLD.\(quoted) AND NEW.\(key) IS OLD.\(key) BEGIN
            \(body)
            END
            """
    }
}
