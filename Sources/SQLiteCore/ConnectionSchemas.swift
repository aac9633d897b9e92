import CSQLite

/// Questions about the schemas of a connection (`main`, `temp`, attached names) that SQLite's
/// C API answers, or that its catalog answers without matching error messages.
extension Connection {
    /// The file behind a schema as `sqlite3_db_filename` gives it: nil for an unknown schema,
    /// `""` for an in-memory or temporary database. Safe to call from an authorizer.
    package func filename(ofSchema schema: String) -> String? {
        guard let handle, let name = sqlite3_db_filename(handle, schema) else { return nil }
        return String(cString: name)
    }

    /// True when the schema is attached read-only (`sqlite3_db_readonly`), e.g. through a
    /// `file:…?mode=ro` URI; false for a writable or unknown schema.
    package func isReadOnly(schema: String) -> Bool {
        guard let handle else { return false }
        return sqlite3_db_readonly(handle, schema) == 1
    }

    /// True when a table or view named `name` exists in `schema`, or, with no schema, in any
    /// schema of the connection (`temp`, `main`, then the attached ones, as SQLite resolves an
    /// unqualified name); false for a schema that is not attached. Names compare as SQLite
    /// compares them (ASCII case-insensitively).
    package func tableExists(_ name: String, schema: String? = nil) throws -> Bool {
        var schemas = try query("SELECT name FROM pragma_database_list").map { $0[0].shellText }
        if !schemas.contains(where: { $0.lowercased() == "temp" }) { schemas.insert("temp", at: 1) }
        if let schema { schemas = schemas.filter { $0.lowercased() == schema.lowercased() } }
        for schema in schemas {
            let sql = "SELECT 1 FROM \(SQLIdentifier.quote(schema)).sqlite_master "
                + "WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE LIMIT 1"
            if try scalar(sql, [.text(name)]) != nil { return true }
        }
        return false
    }
}
