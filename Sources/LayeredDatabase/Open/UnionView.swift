import SQLiteCore
import Foundation

extension LayeredDatabase {
    /// Creates a TEMP view that puts the user's rows on par with the shipped ones:
    /// `CREATE TEMP VIEW "all_food" AS SELECT "pk", "name" FROM "bundle"."food"
    /// UNION ALL SELECT "pk", "name" FROM "main"."user_food"`.
    ///
    /// The view lives in the connection's TEMP schema: it is never written to either file
    /// and disappears when the connection closes (create it after each open).
    ///
    /// - Parameters:
    ///   - name: The view's name.
    ///   - columns: The columns, listed explicitly in both SELECTs; nil takes the bundled
    ///     table's columns (`PRAGMA table_info`), which the user table must also have.
    ///   - bundledTable: The shipped table, in the bundled database.
    ///   - userTable: Its twin in the user database.
    ///   - sourceColumn: If given, an extra last column of that name holding the schema each
    ///     row came from (the bundle name or `main`).
    /// - Returns: The SQL that created the view.
    @discardableResult
    public func createUnionView(
        named name: String,
        columns: [String]? = nil,
        bundledTable: String,
        userTable: String,
        sourceColumn: String? = nil
    ) throws -> String {
        let quote = SQLIdentifier.quote
        let bundledColumns = try tableColumns(bundleName, bundledTable)
        let userColumns = try tableColumns("main", userTable)
        let columnNames = columns ?? bundledColumns
        // Checked here because SQLite reads a double-quoted name that matches no column as a
        // string literal, which would silently fill the view with the column's name.
        for (schema, table, existing) in [(bundleName, bundledTable, bundledColumns), ("main", userTable, userColumns)] {
            let known = Set(existing.map { $0.lowercased() })
            for column in columnNames where !known.contains(column.lowercased()) {
                throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no such column: \(column) in \(schema).\(table)")
            }
        }
        guard !columnNames.isEmpty else {
            throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no columns for the view \(name)")
        }
        func select(_ schema: String, _ table: String) -> String {
            var list = columnNames.map(quote)
            if let sourceColumn { list.append("'\(schema.replacingOccurrences(of: "'", with: "''"))' AS \(quote(sourceColumn))") }
            return "SELECT \(list.joined(separator: ", ")) FROM \(quote(schema)).\(quote(table))"
        }
        let sql = "CREATE TEMP VIEW \(quote(name)) AS \(select(bundleName, bundledTable)) UNION ALL \(select("main", userTable))"
        try connection.execute(sql)
        return sql
    }

    /// The column names of `schema.table`; throws "no such table" when it does not exist.
    private func tableColumns(_ schema: String, _ table: String) throws -> [String] {
        let names = try connection
            .query("SELECT name FROM pragma_table_info(?, ?) ORDER BY cid", [.text(table), .text(schema)])
            .map { $0.values.first?.shellText ?? "" }
        guard !names.isEmpty else {
            throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no such table: \(schema).\(table)")
        }
        return names
    }
}
