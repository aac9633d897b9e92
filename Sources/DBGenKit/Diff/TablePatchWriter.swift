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

/// Turns a table's row changes into SQL, as sqldiff does: `DELETE … WHERE key`, `UPDATE …
/// SET <changed columns only> WHERE key`, `INSERT INTO t(<key>, <columns>) VALUES(…)`.
///
/// Deletes are written first, then updates, then inserts (held back in ``SpillBuffer``s), so
/// that a value a UNIQUE constraint allows once can move from a deleted row to an inserted
/// or updated one.
struct TablePatchWriter: RowChangeHandler {
    private let output: PatchOutput
    private let literals: SQLLiteralWriter
    private let table: String
    private let columns: [String]
    private let keyCount: Int32
    private let insertPrefix: [UInt8]
    private let updates = SpillBuffer()
    private let inserts = SpillBuffer()
    /// Called once, before the first change is written (drops the table's triggers).
    private var beforeFirstChange: (() throws -> Void)?
    /// Rows written, of any kind.
    private(set) var changeCount = 0

    init(
        layout: TableLayout, output: PatchOutput, literals: SQLLiteralWriter,
        beforeFirstChange: @escaping () throws -> Void
    ) {
        self.output = output
        self.literals = literals
        table = SQLIdentifier.quoteIfNeeded(layout.table)
        columns = layout.allColumns.map(SQLIdentifier.quoteIfNeeded)
        keyCount = Int32(layout.keyColumns.count)
        insertPrefix = Array("INSERT INTO \(table)(\(columns.joined(separator: ","))) VALUES(".utf8)
        self.beforeFirstChange = beforeFirstChange
    }

    private mutating func noteChange() throws {
        changeCount += 1
        if let first = beforeFirstChange {
            beforeFirstChange = nil
            try first()
        }
    }

    /// Runs what must precede the first change now (a change is about to be written).
    mutating func noteChangeBeforeWriting() {
        if let first = beforeFirstChange {
            beforeFirstChange = nil
            try? first()
        }
    }

    mutating func deleted(_ old: Statement) throws {
        try noteChange()
        output.append("DELETE FROM \(table)")
        try appendWhere(old, to: &output.buffer)
        try output.flushIfNeeded()
    }

    mutating func inserted(_ new: Statement) throws {
        try noteChange()
        inserts.buffer.append(contentsOf: insertPrefix)
        for index in 0..<Int32(columns.count) {
            if index > 0 { inserts.buffer.append(UInt8(ascii: ",")) }
            try literals.append(new, index, to: &inserts.buffer)
        }
        inserts.buffer.append(contentsOf: ");\n".utf8)
        try inserts.spillIfNeeded()
    }

    mutating func updated(_ old: Statement, _ new: Statement, changed: [Int32]) throws {
        try noteChange()
        updates.buffer.append(contentsOf: "UPDATE \(table) SET ".utf8)
        for (position, index) in changed.enumerated() {
            if position > 0 { updates.buffer.append(contentsOf: ", ".utf8) }
            updates.buffer.append(contentsOf: columns[Int(index)].utf8)
            updates.buffer.append(UInt8(ascii: "="))
            try literals.append(new, index, to: &updates.buffer)
        }
        try appendWhere(old, to: &updates.buffer)
        try updates.spillIfNeeded()
    }

    mutating func unchanged(count: Int) {}

    /// ` WHERE k1=v1 AND k2=v2;\n`, the key as it is in the old row.
    private func appendWhere(_ old: Statement, to out: inout [UInt8]) throws {
        for index in 0..<keyCount {
            out.append(contentsOf: (index == 0 ? " WHERE " : " AND ").utf8)
            out.append(contentsOf: columns[Int(index)].utf8)
            out.append(UInt8(ascii: "="))
            try literals.append(old, index, to: &out)
        }
        out.append(contentsOf: ";\n".utf8)
    }

    /// Writes the held-back updates, then the inserts.
    func finish() throws {
        try updates.drain(into: output)
        try inserts.drain(into: output)
    }
}
