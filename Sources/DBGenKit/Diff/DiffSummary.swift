import Foundation
import SQLiteCore

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
              oldLayout.hasKey, newLayout.hasKey else {
            return "incompatible schema"
        }
        let oldNames = oldLayout.allColumns.map { $0.lowercased() }
        let newNames = newLayout.allColumns.map { $0.lowercased() }
        guard oldLayout.keyColumns.count == newLayout.keyColumns.count, newNames.count >= oldNames.count,
              Array(newNames.prefix(oldNames.count)) == oldNames else {
            return "incompatible schema"
        }
        newLayout.dataColumns = Array(newLayout.dataColumns.prefix(oldLayout.dataColumns.count))
        newLayout.keyOrder = oldLayout.keyOrder
        var counter = RowChangeCounter()
        let merge = RowMerge(layout: oldLayout, equality: .sqlIs)
        try merge.run(old: try oldInput.rows(oldLayout), new: try newInput.rows(newLayout), &counter)
        return "\(counter.updates) changes, \(counter.inserts) inserts, \(counter.deletes) deletes, \(counter.unchangedRows) unchanged"
    }
}
