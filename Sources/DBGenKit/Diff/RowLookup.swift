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

/// One side's rows of a rowid table read through SQLite by rowid, for ``RecordMerge``'s rows
/// whose record bytes differ: decoded by SQLite, as ``RowMerge`` reads every row.
///
/// One statement, `SELECT key, columns… WHERE key >= ?1 ORDER BY key`: a row just ahead of
/// the last one read (by its position in the table) is reached by stepping, any other by a
/// seek. A row that is not where the file has it is an ``UnreadablePages`` (the file and
/// SQLite disagree: the merge goes on through SQLite alone).
final class RowLookup {
    private let statement: Statement
    private let path: String
    /// The position in the table of the statement's current row; -1 when on none.
    private var position = -1
    /// Stepping over this many rows costs about what a seek does.
    private static let maximumSteps = 8

    init(_ input: DiffInput, _ layout: TableLayout) throws {
        statement = try input.prepare(layout.selectSQL(fromRowid: true))
        path = input.path
    }

    /// The statement on the row `rowid`, the `ordinal`-th of the table (from 0).
    func row(rowid: Int64, ordinal: Int) throws -> Statement {
        if position >= 0, ordinal >= position, ordinal - position <= Self.maximumSteps {
            while position < ordinal {
                guard try statement.step() else {
                    position = -1
                    break
                }
                position += 1
            }
            if position == ordinal, statement.int64(0) == rowid { return statement }
        }
        statement.reset()
        statement.bindInt64(rowid, at: 1)
        guard try statement.step(), statement.int64(0) == rowid else {
            position = -1
            throw UnreadablePages(path: path, reason: "SQLite does not find row \(rowid) where the file has it")
        }
        position = ordinal
        return statement
    }

    /// Ends the statement (before the read transaction ends).
    func finish() {
        statement.reset()
        position = -1
    }
}
