import FileSystemKit
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
import SQLiteSession

extension DatabaseDiff {
    /// Writes ``changeset()`` to `path`, atomically and durably (a temporary file beside it,
    /// synced, renamed over it): `path` holds the whole changeset or what it held before.
    ///
    /// - Throws: What ``changeset()`` throws, or ``DBGenError`` (code ``DBGenError/Code/output``).
    public func writeChangeset(to path: String) throws {
        let data = try changeset()
        do {
            try AtomicFile.replace(path, with: data, tag: "dbgen")
        } catch let error as FileSystemError {
            throw DBGenError.output(path: path, reason: "cannot write: \(error.reason)")
        }
    }

    /// The row changes as a session-extension changeset: `sqlite3changeset_apply` on the old
    /// database gives the new database's rows.
    ///
    /// A changeset carries rows only, of tables with a declared PRIMARY KEY, so:
    /// - any schema difference (a table, index, view or trigger added, dropped or changed)
    ///   is a ``DBGenError`` with code ``DBGenError/Code/unsupported``;
    /// - rows that differ in a table without a declared PRIMARY KEY are
    ///   one too.
    ///
    /// `sqlite_sequence` is left to SQLite (applying the inserts updates it) and
    /// `user_version` is not carried.
    public func changeset() throws -> Data {
        try checkSchemaForChangeset()
        var keyed: [String] = []
        for object in new.catalog.ordinaryTables
        where (table == nil || object.name == table) && object.name != "sqlite_sequence" {
            let layout = try new.layout(object.name)
            if layout.hasDeclaredPrimaryKey {
                keyed.append(object.name)
                continue
            }
            let differs: Bool
            if layout.hasKey {
                var counter = RowChangeCounter()
                try RowMerge(layout: layout).run(old: try old.rows(layout), new: try new.rows(layout), &counter)
                differs = counter.differs
            } else {
                differs = try !WholeTableComparison.same(
                    old: try old.rows(layout), new: try new.rows(layout),
                    columns: Int32(layout.allColumns.count))
            }
            if differs { throw DBGenError.changesetTableWithoutPrimaryKey(table: object.name) }
        }
        do {
            let connection = try Connection(uri: SQLiteURI.fileURI(path: new.path, parameters: [("mode", "ro")]))
            let oldURI = SQLiteURI.fileURI(path: old.path, parameters: [("mode", "ro")])
            try connection.execute("ATTACH DATABASE ? AS old", [.text(oldURI)])
            let session = try Session(connection)
            for name in keyed {
                try session.attach(table: name)
                try session.diff(fromSchema: "old", table: name)
            }
            return try session.changeset()
        } catch let error as SQLiteError {
            throw DBGenError.sqlite(path: new.path, error)
        }
    }

    private func checkSchemaForChangeset() throws {
        let names = Set(old.catalog.objects.keys).union(new.catalog.objects.keys)
        for name in names.sorted(by: { $0.binaryPrecedes($1) }) {
            let before = old.catalog.objects[name], after = new.catalog.objects[name]
            if let table, name != table, (before ?? after)?.tableName != table { continue }
            if before == after { continue }
            let reason = before == nil ? "added" : (after == nil ? "dropped" : "changed")
            // Names are those of the old or the new catalog, so one of before and after is there.
            // swift-format-ignore: NeverForceUnwrap
            throw DBGenError.changesetSchemaDifference(object: name, reason: "\((before ?? after)!.type) \(reason)")
        }
    }
}
