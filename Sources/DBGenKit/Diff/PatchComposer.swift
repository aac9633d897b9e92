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

/// Writes the SQL patch of a ``DatabaseDiff``: `BEGIN`, the drops, the creates of tables,
/// each table's rows, `sqlite_sequence`, the creates of indexes, views and triggers,
/// `user_version`, `COMMIT`. Nothing at all when the databases hold the same content.
final class PatchComposer {
    private let old: DiffInput
    private let new: DiffInput
    private let only: String?
    private let plan: SchemaPlan
    private let output: PatchOutput
    private let literals: SQLLiteralWriter
    private var began = false
    private var droppedTriggers: Set<String> = []
    private var changedTables: Set<String> = []
    private var scratch: Connection?
    /// How rows of unchanged rowid tables are read.
    private let reading: RecordReading

    init(old: DiffInput, new: DiffInput, only: String?, reading: RecordReading, output: PatchOutput) throws {
        self.reading = reading
        self.old = old
        self.new = new
        self.only = only
        self.output = output
        plan = SchemaPlan(old: old.catalog, new: new.catalog, only: only)
        literals = try SQLLiteralWriter()
    }

    /// Writes the whole patch.
    func write() throws {
        for name in plan.dropTriggers { statement("DROP TRIGGER \(quoted(name));"); droppedTriggers.insert(name) }
        for name in plan.dropViews { statement("DROP VIEW \(quoted(name));") }
        for name in plan.dropIndexes { statement("DROP INDEX \(quoted(name));") }
        for name in plan.dropTables { statement("DROP TABLE \(quoted(name));") }
        // The plan creates only objects whose sql the catalog read (an automatic index has none and is never created).
        // swift-format-ignore: NeverForceUnwrap
        for table in plan.createTables { statement(table.sql! + ";") }
        try output.flushIfNeeded()
        for (table, baseline) in plan.dataTables { try writeRows(of: table, baseline: baseline) }
        try writeSequence()
        // As above: objects the plan creates have sql.
        // swift-format-ignore: NeverForceUnwrap
        for index in plan.createIndexes { statement(index.sql! + ";") }
        // As above: objects the plan creates have sql.
        // swift-format-ignore: NeverForceUnwrap
        for view in plan.createViews { statement(view.sql! + ";") }
        for trigger in new.catalog.objects(ofType: "trigger")
        where includedTrigger(trigger)
            && plan.mustCreateTrigger(trigger, old: old.catalog, droppedTriggers: droppedTriggers)
        {
            // As above: objects the plan creates have sql.
            // swift-format-ignore: NeverForceUnwrap
            statement(trigger.sql! + ";")
        }
        if only == nil {
            for pragma in ["user_version", "application_id"] {
                let value = try new.pragma(pragma)
                if try old.pragma(pragma) != value { statement("PRAGMA \(pragma)=\(value);") }
            }
        }
        if began { output.append("COMMIT;\n") }
        try output.flush()
    }

    private func includedTrigger(_ trigger: SchemaObject) -> Bool {
        only == nil || trigger.tableName == only || trigger.name == only
    }

    private func quoted(_ name: String) -> String { SQLIdentifier.quoteIfNeeded(name) }

    /// Appends one statement line, after `BEGIN TRANSACTION;` when it is the first.
    private func statement(_ text: String) {
        beginIfNeeded()
        output.append(text)
        output.append("\n")
    }

    private func beginIfNeeded() {
        if !began {
            began = true
            output.append("BEGIN TRANSACTION;\n")
        }
    }

    private func writeRows(of table: String, baseline: SchemaPlan.Baseline) throws {
        let layout = try new.layout(table)
        if baseline == .analyze { statement("ANALYZE sqlite_master;") }
        var writer = TablePatchWriter(layout: layout, output: output, literals: literals) { [unowned self] in
            self.beginIfNeeded()
            if baseline == .old { self.dropTriggers(on: table) }
        }
        do {
            if layout.hasKey && baseline == .old {
                try RecordMerge(layout: layout, reading: reading).run(old: old, new: new, &writer)
            } else {
                let oldRows: Statement?
                switch baseline {
                case .old: oldRows = try old.rows(layout)
                case .scratch: oldRows = try scratchDatabase().prepare(layout.selectSQL())
                case .empty, .analyze: oldRows = nil
                }
                if layout.hasKey {
                    try RowMerge(layout: layout).run(old: oldRows, new: try new.rows(layout), &writer)
                } else {
                    try rewriteWhole(layout, oldRows: oldRows, baseline: baseline, writer: &writer)
                }
            }
        } catch let error as SQLiteError {
            throw DBGenError.sqlite(path: new.path, error)
        }
        try writer.finish()
        if writer.changeCount > 0 { changedTables.insert(table) }
    }

    /// A table without a key: when its rows differ, all are deleted and NEW's inserted.
    private func rewriteWhole(
        _ layout: TableLayout, oldRows: Statement?, baseline: SchemaPlan.Baseline,
        writer: inout TablePatchWriter
    ) throws {
        let columns = Int32(layout.allColumns.count)
        if try WholeTableComparison.same(old: oldRows, new: try new.rows(layout), columns: columns) { return }
        writer.noteChangeBeforeWriting()
        if oldRows != nil { output.append("DELETE FROM \(quoted(layout.table));\n") }
        let newRows = try new.rows(layout)
        while try newRows.step() { try writer.inserted(newRows) }
    }

    /// Drops the old database's triggers on `table` before its rows change (they would fire
    /// on the patch's statements); they are created again at the end.
    private func dropTriggers(on table: String) {
        for trigger in old.catalog.objects(ofType: "trigger")
        where trigger.tableName == table && !droppedTriggers.contains(trigger.name) {
            output.append("DROP TRIGGER \(quoted(trigger.name));\n")
            droppedTriggers.insert(trigger.name)
        }
    }

    /// A database where the virtual tables the patch creates are created too, so their
    /// shadow tables hold what the module puts in them at creation.
    private func scratchDatabase() throws -> Connection {
        if let scratch { return scratch }
        let connection = try Connection(uri: "file::memory:?mode=memory")
        // As above: objects the plan creates have sql.
        // swift-format-ignore: NeverForceUnwrap
        for table in plan.createTables where table.isVirtualTable { try connection.execute(table.sql!) }
        scratch = connection
        return connection
    }

    /// `sqlite_sequence` is maintained by SQLite as rows go into AUTOINCREMENT tables, so it
    /// is written last, whole, when it differs or such a table changed.
    private func writeSequence() throws {
        guard only == nil || only == "sqlite_sequence",
            new.catalog.objects["sqlite_sequence"] != nil
        else { return }
        let layout = try new.layout("sqlite_sequence")
        var differs = old.catalog.objects["sqlite_sequence"] == nil
        if !differs {
            var counter = RowChangeCounter()
            try RowMerge(layout: layout).run(old: try old.rows(layout), new: try new.rows(layout), &counter)
            differs = counter.differs
        }
        let autoincrementChanged = try changedTables.contains { try new.layout($0).isAutoincrement }
        guard differs || autoincrementChanged else { return }
        statement("DELETE FROM sqlite_sequence;")
        var writer = TablePatchWriter(layout: layout, output: output, literals: literals) {}
        try RowMerge(layout: layout).run(old: nil, new: try new.rows(layout), &writer)
        try writer.finish()
    }
}
