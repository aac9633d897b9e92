// Old and new are force-unwrapped only where hasOld and hasNew say they are there (the
// same step sets both); the loop is the one callgrind measures, so it stays without bindings.
// swift-format-ignore-file: NeverForceUnwrap

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

/// What the merge of a table's two row streams finds, row by row, in key order.
protocol RowChangeHandler {
    /// A row of the old table has no counterpart in the new one.
    mutating func deleted(_ old: Statement) throws
    /// A row of the new table has no counterpart in the old one.
    mutating func inserted(_ new: Statement) throws
    /// The row is in both, and the columns at `changed` (indexes into the layout's
    /// ``TableLayout/allColumns``) differ.
    mutating func updated(_ old: Statement, _ new: Statement, changed: [Int32]) throws
    /// The next `count` rows are in both, identical.
    mutating func unchanged(count: Int) throws
}

/// A merge join of two tables read in key order: one pass over each, one row of each in
/// memory, whatever the tables' sizes.
struct RowMerge {
    /// The layout both statements select (key columns first).
    var layout: TableLayout
    /// How values are compared.
    var equality: ValueComparison.Equality = .exact

    /// Steps `old` and `new` (either may be nil: an empty table) to the end, calling
    /// `handler` for each key.
    func run<Handler: RowChangeHandler>(old: Statement?, new: Statement?, _ handler: inout Handler) throws {
        var hasOld = try old?.step() ?? false
        var hasNew = try new?.step() ?? false
        let columnCount = Int32(layout.allColumns.count)
        let keyCount = Int32(layout.keyColumns.count)
        var changed: [Int32] = []
        changed.reserveCapacity(Int(columnCount))
        while hasOld || hasNew {
            let order: Int
            if !hasNew { order = -1 } else if !hasOld { order = 1 } else { order = compareKeys(old!, new!) }
            if order < 0 {
                try handler.deleted(old!)
                hasOld = try old!.step()
            } else if order > 0 {
                try handler.inserted(new!)
                hasNew = try new!.step()
            } else {
                // What report(_:_:changed:_:) does, written out in this loop: called, it costs
                // a tenth more instructions where every row changed (callgrind).
                changed.removeAll(keepingCapacity: true)
                let first: Int32 = layout.isRowidKey || equality == .sqlIs ? keyCount : 0
                var index = first
                while index < columnCount {
                    if !ValueComparison.same(old!, new!, index, equality) { changed.append(index) }
                    index += 1
                }
                if changed.isEmpty {
                    try handler.unchanged(count: 1)
                } else {
                    try handler.updated(old!, new!, changed: changed)
                }
                hasOld = try old!.step()
                hasNew = try new!.step()
            }
        }
    }

    /// Compares the current rows of `old` and `new`, which have the same key, and tells
    /// `handler` whether they differ (`changed` is scratch space).
    @inline(__always)
    func report<Handler: RowChangeHandler>(
        _ old: Statement, _ new: Statement, changed: inout [Int32], _ handler: inout Handler
    ) throws {
        changed.removeAll(keepingCapacity: true)
        // A rowid key is equal only when identical; a WITHOUT ROWID key may be equal
        // under its collation yet differ in bytes (NOCASE 'a' and 'A'): then it changed
        // (sqldiff, whose counts `.sqlIs` reproduces, compares only the other columns).
        let columnCount = Int32(layout.allColumns.count)
        var index: Int32 = layout.isRowidKey || equality == .sqlIs ? Int32(layout.keyColumns.count) : 0
        while index < columnCount {
            if !ValueComparison.same(old, new, index, equality) { changed.append(index) }
            index += 1
        }
        if changed.isEmpty {
            try handler.unchanged(count: 1)
        } else {
            try handler.updated(old, new, changed: changed)
        }
    }

    @inline(__always)
    private func compareKeys(_ a: Statement, _ b: Statement) -> Int {
        if layout.isRowidKey {
            let x = a.int64(0), y = b.int64(0)
            return x < y ? -1 : (x > y ? 1 : 0)
        }
        for (index, order) in layout.keyOrder.enumerated() {
            let result = ValueComparison.compareKey(a, b, Int32(index), order)
            if result != 0 { return result }
        }
        return 0
    }
}

/// Tables without a key to match rows by: true when both hold the same rows in the same
/// (storage) order, compared exactly.
enum WholeTableComparison {
    static func same(old: Statement?, new: Statement, columns: Int32) throws -> Bool {
        guard let old else { return try !new.step() }
        while true {
            let hasOld = try old.step(), hasNew = try new.step()
            if hasOld != hasNew { return false }
            if !hasOld { return true }
            for index in 0..<columns where !ValueComparison.same(old, new, index, .exact) { return false }
        }
    }
}

/// Counts what a merge finds (the summary, and checks that need only to know whether a
/// table differs).
struct RowChangeCounter: RowChangeHandler {
    var updates = 0
    var inserts = 0
    var deletes = 0
    var unchangedRows = 0

    /// True when any row differs.
    var differs: Bool { updates + inserts + deletes > 0 }

    mutating func deleted(_ old: Statement) { deletes += 1 }
    mutating func inserted(_ new: Statement) { inserts += 1 }
    mutating func updated(_ old: Statement, _ new: Statement, changed: [Int32]) { updates += 1 }
    mutating func unchanged(count: Int) { unchangedRows += count }
}

extension DatabaseDiff {
    /// sqldiff's `--summary`: one line per table of either database (virtual tables left
    /// out, shadow tables in), in name order:
    /// `food: 10000 changes, 1000 inserts, 1000 deletes, 989000 unchanged`,
    /// `t: missing from first database`, `t: missing from second database`,
    /// `t: incompatible schema`.
    ///
    /// Rows are matched and compared as sqldiff does: by rowid (or the WITHOUT ROWID key),
    /// over the old table's columns, with SQL `IS` (so 1 and 1.0 count as unchanged here
    /// although the patch carries the change of type).
    public func summary() throws -> String {
        var names = Set(old.catalog.ordinaryTables.map(\.name)).union(new.catalog.ordinaryTables.map(\.name))
        if let table { names = names.filter { $0 == table } }
        var text = ""
        for name in names.sorted(by: { $0.binaryPrecedes($1) }) {
            text += "\(name): \(try summaryLine(name))\n"
        }
        return text
    }

    private func summaryLine(_ name: String) throws -> String {
        let oldInput = old, newInput = new
        guard oldInput.catalog.objects[name] != nil else { return "missing from first database" }
        guard newInput.catalog.objects[name] != nil else { return "missing from second database" }
        guard let oldLayout = try? oldInput.layout(name), var newLayout = try? newInput.layout(name),
            oldLayout.hasKey, newLayout.hasKey
        else {
            return "incompatible schema"
        }
        let oldNames = oldLayout.allColumns.map { $0.lowercased() }
        let newNames = newLayout.allColumns.map { $0.lowercased() }
        guard oldLayout.keyColumns.count == newLayout.keyColumns.count, newNames.count >= oldNames.count,
            Array(newNames.prefix(oldNames.count)) == oldNames
        else {
            return "incompatible schema"
        }
        newLayout.dataColumns = Array(newLayout.dataColumns.prefix(oldLayout.dataColumns.count))
        newLayout.keyOrder = oldLayout.keyOrder
        var counter = RowChangeCounter()
        if oldInput.catalog.objects[name] == newInput.catalog.objects[name] {
            // One CREATE statement: one layout, and records that compare as bytes.
            try RecordMerge(layout: oldLayout, equality: .sqlIs, reading: reading)
                .run(old: oldInput, new: newInput, &counter)
        } else {
            let merge = RowMerge(layout: oldLayout, equality: .sqlIs)
            try merge.run(old: try oldInput.rows(oldLayout), new: try newInput.rows(newLayout), &counter)
        }
        return
            "\(counter.updates) changes, \(counter.inserts) inserts, \(counter.deletes) deletes, \(counter.unchangedRows) unchanged"
    }
}
