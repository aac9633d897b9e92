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

/// Replays batches against the prepared INSERT: binds fields in place (`SQLITE_STATIC`) and
/// keeps the batch holding the current bindings alive until the next bind.
///
/// With a multi-row statement (``ImportGroupedInsert``), runs of consecutive records go
/// `rows` at a time through it, which saves SQLite's per-statement work (reset, cursor open,
/// a root-to-leaf seek per row). Each run ends with at least one record through the
/// single-row statement, so that statement always holds the last record's bindings (for
/// `.reinsert`) and `changes()` after the import is 1, as in the shell. A failed group is undone
/// by SQLite (statement rollback) and its records are replayed one by one, so the error names
/// the record, and its message, exactly as the single-row insert reports it.
struct ImportRowInserter {
    let statement: Statement
    let group: ImportGroupedInsert?
    let columnCount: Int
    let connection: Connection
    private(set) var rows = 0
    /// The batch whose bytes the single-row statement's parameters point into.
    private var boundBatch: ImportBatch?
    /// Records of the current batch waiting for a group: (line, index of the first field).
    private var pending: [(line: Int, field: Int)] = []
    /// Per column: true when a plain integer field is bound as an integer (both statements
    /// insert into the same table).
    private let integerColumns: [Bool]
    /// The column that is the table's rowid (``ImportGroupedInsert/RowidAlias``), or -1.
    private let rowidColumn: Int
    /// The rowid SQLite gives the next row inserted without one, while it is known: one more
    /// than the largest rowid inserted so far. A group binds NULL for a key equal to it.
    private var nextRowid: Int64?

    init(statement: Statement, group: ImportGroupedInsert?, columnCount: Int, connection: Connection) {
        self.statement = statement
        self.group = group
        self.columnCount = columnCount
        self.connection = connection
        self.integerColumns = group?.integerColumns ?? Array(repeating: false, count: columnCount)
        self.rowidColumn = group?.rowidAlias?.column ?? -1
        self.nextRowid = group?.rowidAlias?.next
        if let group { pending.reserveCapacity(ImportSession.batchRecords + group.rows) }
    }

    /// Inserts the batch's records and reports its warnings, in order: all of them, or those of
    /// `entries` (the page writer hands over part of a batch), whose first record starts at
    /// field `firstField`.
    mutating func insert(
        _ batch: ImportBatch, entries: Range<Int>? = nil, firstField: Int = 0, location: (Int) -> SourceLocation,
        warn: (Diagnostic) throws -> Void
    ) throws {
        let fields = BatchFields(
            base: batch.bytes.base, starts: batch.fields.starts, lengths: batch.fields.lengths,
            checkNul: batch.mayContainNul)
        defer { pending.removeAll(keepingCapacity: true) }
        try withExtendedLifetime(batch) {
            try insert(
                batch, entries: entries ?? batch.entries.indices, field: firstField, fields: fields,
                location: location, warn: warn)
        }
    }

    /// Where the fields of a batch are.
    private struct BatchFields {
        let base: UnsafeMutablePointer<UInt8>
        let starts: UnsafeMutablePointer<Int>
        let lengths: UnsafeMutablePointer<Int>
        let checkNul: Bool
    }

    private mutating func insert(
        _ batch: ImportBatch, entries: Range<Int>, field firstField: Int, fields: BatchFields,
        location: (Int) -> SourceLocation, warn: (Diagnostic) throws -> Void
    ) throws {
        var field = firstField
        // The diagnostics before the first entry were reported already.
        var diagnostic = batch.entries[..<entries.lowerBound].filter {
            if case .diagnostic = $0 { return true } else { return false }
        }.count
        let nCol = columnCount
        for entry in batch.entries[entries] {
            switch entry {
            case .diagnostic:
                try flush(batch, fields: fields, location: location)
                let next = batch.diagnostics[diagnostic]
                diagnostic += 1
                if next.severity == .error { throw DBGenError(.importData, next.message, at: next.location) }
                try warn(next)
            case .insert(let line):
                if group != nil {
                    pending.append((line, field))
                } else {
                    try insertSingle(batch, fields: fields, field: field, line: line, location: location)
                }
                field += nCol
            case .reinsert(let line):
                try flush(batch, fields: fields, location: location)
                try step(statement, line: line, location: location)
            }
        }
        try flush(batch, fields: fields, location: location)
    }

    /// Inserts the pending records: whole groups, then the rest (at least one) one by one.
    private mutating func flush(_ batch: ImportBatch, fields: BatchFields, location: (Int) -> SourceLocation) throws {
        let count = pending.count
        if count == 0 { return }
        var next = 0
        if let group {
            let size = group.rows
            let nCol = columnCount
            for _ in 0..<((count - 1) / size) {
                for row in 0..<size {
                    bind(
                        group.statement, parameterOffset: Int32(row * nCol), fields: fields,
                        field: pending[next + row].field, inGroup: true)
                }
                _ = group.statement.stepStatus()
                if group.statement.reset() == .SQLITE_OK {
                    rows += size
                } else {
                    let message = connection.errorMessage
                    if !connection.isInTransaction {
                        // The whole transaction is gone (not a constraint: I/O, full disk):
                        // nothing to replay against.
                        throw DBGenError(.importData, "INSERT failed: \(message)", at: location(pending[next].line))
                    }
                    // SQLite undid the group's rows: insert them singly, with their own keys, to
                    // find the failing one. From here on keys are bound as they are: should a
                    // NULL ever have given a row a rowid that a later row's key names, the group
                    // failed for that, and its rows go in again with their keys.
                    nextRowid = nil
                    for row in next..<(next + size) {
                        try insertSingle(
                            batch, fields: fields, field: pending[row].field, line: pending[row].line,
                            location: location)
                    }
                }
                next += size
            }
        }
        for row in next..<count {
            try insertSingle(
                batch, fields: fields, field: pending[row].field, line: pending[row].line, location: location)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func insertSingle(
        _ batch: ImportBatch, fields: BatchFields, field: Int, line: Int,
        location: (Int) -> SourceLocation
    ) throws {
        boundBatch = batch
        bind(statement, parameterOffset: 0, fields: fields, field: field)
        try step(statement, line: line, location: location)
    }

    private mutating func step(_ statement: Statement, line: Int, location: (Int) -> SourceLocation) throws {
        _ = statement.stepStatus()
        if statement.reset() != .SQLITE_OK {
            throw DBGenError(.importData, "INSERT failed: \(connection.errorMessage)", at: location(line))
        }
        rows += 1
    }

    /// Binds the record whose first field is `field` to parameters `parameterOffset + 1…`.
    /// A plain integer in a column of INTEGER or NUMERIC affinity is bound as that integer (see
    /// ``ImportGroupedInsert``), which is what SQLite would convert the text to. In a group, a
    /// rowid equal to the one SQLite would give a row without one is bound as NULL
    /// (``ImportGroupedInsert/RowidAlias``); single rows keep their key, so `.reinsert` inserts
    /// the same row again.
    private mutating func bind(
        _ statement: Statement, parameterOffset: Int32, fields: BatchFields, field: Int,
        inGroup: Bool = false
    ) {
        for column in 0..<columnCount {
            let parameter = parameterOffset + Int32(column + 1)
            let length = fields.lengths[field + column]
            if length < 0 {
                if column == rowidColumn { nextRowid = nil } // SQLite picks the rowid
                statement.bindNull(at: parameter)
            } else {
                let pointer = fields.base + fields.starts[field + column]
                if integerColumns[column], let value = ImportGroupedInsert.plainInteger(pointer, count: length) {
                    if column == rowidColumn, let next = nextRowid, value >= next {
                        nextRowid = value + 1
                        if inGroup, value == next {
                            statement.bindNull(at: parameter)
                            continue
                        }
                    }
                    statement.bindInt64(value, at: parameter)
                    continue
                }
                if column == rowidColumn { nextRowid = nil } // SQLite converts the text: not followed here
                // Bound as a C string by the shell: a NUL byte ends the value.
                var textLength = length
                if fields.checkNul, length > 0, let nul = memchr(pointer, 0, length) {
                    textLength = UnsafeRawPointer(nul) - UnsafeRawPointer(pointer)
                }
                statement.bindTextNoCopy(
                    UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self),
                    count: Int32(textLength), at: parameter)
            }
        }
    }
}
