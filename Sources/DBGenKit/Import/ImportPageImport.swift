import SQLiteCore

/// An `.import` into a table whose pages dbgen writes itself (docs/Performance.md, "Pages
/// written directly"): the records of each batch are encoded (``ImportRecordEncoder``) and laid
/// out (``ImportTableTreeWriter``) in file order, warnings reported in between exactly as the
/// insert path reports them, until SQLite's insert path takes over (a ``Handover``): at a record
/// the encoder cannot vouch for (SQLite then inserts or refuses it, with its own error), at a
/// record a `.reinsert` repeats (SQLite must bind it), and in any case for the last record, so
/// that what SQLite tells of the last insert (`changes()`, `last_insert_rowid()`) is what the
/// shell's import leaves.
///
/// The last record of a batch may be the file's last (the parser may hand over an empty last
/// batch): it is encoded (so that a refusal happens in file order) but laid out only once the
/// next batch shows records after it.
final class ImportPageImport {
    /// Where SQLite's insert path takes over: the pending record, if any, then `batch`'s
    /// entries from `entry` on (whose first record starts at field `field`).
    struct Handover {
        var pending: Position?
        var batch: ImportBatch?
        var entry = 0
        var field = 0
    }

    /// A record in a batch: its entry, its first field, its line.
    struct Position {
        var batch: ImportBatch
        var entry: Int
        var field: Int
        var line: Int
    }

    let writer: ImportPageWriter
    /// The writer's tree, held here too: a method called through `writer.tree` retains it each time.
    private let tree: ImportTableTreeWriter
    private let encoder: ImportRecordEncoder
    private let columnCount: Int
    private let location: (Int) -> SourceLocation
    private var pending: Position?
    private let connection: Connection

    private init(
        connection: Connection, writer: ImportPageWriter, encoder: ImportRecordEncoder, columnCount: Int,
        location: @escaping (Int) -> SourceLocation
    ) {
        self.connection = connection
        self.writer = writer
        self.tree = writer.tree
        self.encoder = encoder
        self.columnCount = columnCount
        self.location = location
    }

    /// The page path for an import of `columnCount` values a record into `table`, when it can
    /// take it (see ``ImportPageTarget`` and ``ImportPageWriter``): the table empty, no
    /// transaction open.
    static func start(
        connection: Connection, table: ImportTable?, columnCount: Int, location: @escaping (Int) -> SourceLocation
    ) throws -> ImportPageImport? {
        guard let table, !connection.isInTransaction,
            let target = ImportPageTarget.read(connection: connection, table: table, columnCount: columnCount)
        else { return nil }
        // SQLite 3.40's text-to-number conversion, reproduced only where it is exact.
        let converts = target.columns.contains { $0 == .numeric || $0 == .real || $0 == .rowid }
        if converts && !(ImportNumericAffinity.isExact && DirectDatabaseFile.libraryVersionNumber / 1000 == 3040) {
            return nil
        }
        let qualifiedTable = "main." + SQLIdentifier.quote(table.name)
        guard try connection.scalar("SELECT 1 FROM \(qualifiedTable) LIMIT 1") == nil,
            let writer = try ImportPageWriter.start(
                connection: connection, target: target, qualifiedTable: qualifiedTable)
        else { return nil }
        let encoder = ImportRecordEncoder(
            target: target, schemaFormat: writer.schemaFormat, lengthLimit: connection.limit(.length))
        return ImportPageImport(
            connection: connection, writer: writer, encoder: encoder, columnCount: columnCount, location: location)
    }

    /// Records laid out in pages.
    var rows: Int { tree.rows }

    /// Takes a batch's records in order; returns where SQLite must take over within it, if it must.
    func consume(_ batch: ImportBatch, report: (Diagnostic) throws -> Void) throws -> Handover? {
        let entries = batch.entries
        let lastInsert = entries.lastIndex { if case .insert = $0 { return true } else { return false } }
        if let record = pending {
            // The last record of the batch before: not the file's last when records follow.
            let next = entries.firstIndex { if case .diagnostic = $0 { return false } else { return true } }
            guard let next, case .insert = entries[next] else { return Handover(pending: record, batch: batch) }
            // Encoded once already, so it encodes again (the rowids have not moved).
            guard withExtendedLifetime(record.batch, { encode(record.batch, field: record.field) }) else {
                return Handover(pending: record, batch: batch)
            }
            try layOut(line: record.line)
            pending = nil
        }
        return try withExtendedLifetime(batch) { () throws -> Handover? in
            var field = 0
            var diagnostic = 0
            for index in entries.indices {
                switch entries[index] {
                case .diagnostic:
                    let next = batch.diagnostics[diagnostic]
                    diagnostic += 1
                    if next.severity == .error { throw DBGenError(.importData, next.message, at: next.location) }
                    try report(next)
                case .insert(let line):
                    guard encode(batch, field: field), !isReinserted(after: index, in: entries) else {
                        return Handover(batch: batch, entry: index, field: field)
                    }
                    if index == lastInsert {
                        pending = Position(batch: batch, entry: index, field: field, line: line)
                    } else {
                        try layOut(line: line)
                    }
                    field += columnCount
                case .reinsert:
                    // Only after a record SQLite inserted (see `isReinserted`), or as the first.
                    return Handover(batch: batch, entry: index, field: field)
                }
            }
            return nil
        }
    }

    /// True when the next record entry after `index` is a `.reinsert` (which repeats the
    /// record of `index` with SQLite's bindings): SQLite must insert that record itself.
    @inline(__always)
    private func isReinserted(after index: Int, in entries: [ImportBatch.Entry]) -> Bool {
        var next = index + 1
        while next < entries.count {
            switch entries[next] {
            case .diagnostic: next += 1
            case .reinsert: return true
            case .insert: return false
            }
        }
        return false
    }

    @inline(__always)
    private func encode(_ batch: ImportBatch, field: Int) -> Bool {
        encoder.encode(
            base: batch.bytes.base, starts: batch.fields.starts, lengths: batch.fields.lengths, field: field,
            checkNul: batch.mayContainNul)
    }

    /// Lays out the record encoded last.
    private func layOut(line: Int) throws {
        do {
            try tree.append(encoder)
            encoder.commit()
        } catch is ImportTableTreeWriter.DatabaseFull {
            throw DBGenError(.importData, "INSERT failed: database or disk is full", at: location(line))
        }
    }

    /// The hand-over at the end of the file: SQLite inserts the last record.
    var finalHandover: Handover { Handover(pending: pending) }

    /// Writes the tree and gives the file back to SQLite, the pending record left out.
    func finish() throws {
        try writer.finish(lastRowid: rows > 0 ? tree.lastRowid : nil)
        // SQLite counted none of these rows; the shell's inserts count each.
        if rows > 0 { try connection.addUncountedChanges(Int64(rows)) }
    }
}
