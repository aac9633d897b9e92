import SQLiteCore

/// The sqlite3 shell's SQL parameters: `.parameter` keeps them in `temp.sqlite_parameters`
/// (key, value), and every statement the script runs gets its `:name`, `@name`, `$name` and
/// `?NNN` parameters bound from there (a missing key binds NULL), as the 3.40 shell does.
struct ShellParameters {
    let connection: Connection

    /// Runs one `.parameter` subcommand. Returns a warning to report, if any.
    func perform(_ command: ParameterCommand) throws -> String? {
        do {
            switch command {
            case .initialize:
                try createTable()
            case .clear:
                try connection.execute("DROP TABLE IF EXISTS temp.sqlite_parameters;")
            case .list:
                break
            case .unset(let key):
                try unset(key)
            case .set(let key, let value):
                return try set(key, value)
            }
        } catch let error as SQLiteError {
            throw DBGenError(.dotCommand, error.message)
        }
        return nil
    }

    /// `.parameter unset KEY`: nothing to do when there is no parameter table (the shell runs
    /// the DELETE and ignores that it fails).
    private func unset(_ key: String) throws {
        guard try connection.scalar("SELECT count(*) FROM temp.sqlite_master WHERE name = 'sqlite_parameters'") != 0
        else {
            return
        }
        try connection.execute("DELETE FROM temp.sqlite_parameters WHERE key=\(SQLIdentifier.quoteLiteral(key))")
    }

    /// The shell's `bind_table_init`: the table's name starts with `sqlite_`, so it is created
    /// with the schema writable and defensive mode off for a moment.
    private func createTable() throws {
        let defensive = try connection.isEnabled(.defensive)
        let writableSchema = try connection.isEnabled(.writableSchema)
        try connection.setEnabled(.defensive, false)
        try connection.setEnabled(.writableSchema, true)
        defer {
            // Setting an option fails only on a closed connection, which the next statement reports.
            _ = try? connection.setEnabled(.writableSchema, writableSchema)
            _ = try? connection.setEnabled(.defensive, defensive)
        }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS temp.sqlite_parameters(
              key TEXT PRIMARY KEY,
              value
            ) WITHOUT ROWID;
            """)
    }

    /// `.parameter set KEY VALUE`: VALUE is SQL (`5`, `'text'`, `x'00'`, `1+2`, `random()`);
    /// when it does not compile it is stored as the text written. Only the first statement of
    /// the generated SQL runs, as in the shell. A value that fails while it is evaluated
    /// leaves the parameter unset (the shell says nothing): that is reported as a warning.
    private func set(_ key: String, _ value: String) throws -> String? {
        try createTable()
        let quotedKey = SQLIdentifier.quoteLiteral(key)
        let statement: Statement
        do {
            statement = try firstStatement(
                "REPLACE INTO temp.sqlite_parameters(key,value)VALUES(\(quotedKey),\(value));")
        } catch is SQLiteError {
            statement = try firstStatement(
                "REPLACE INTO temp.sqlite_parameters(key,value)VALUES(\(quotedKey),\(SQLIdentifier.quoteLiteral(value)));"
            )
        }
        do {
            while try statement.step() {}
        } catch let error as SQLiteError {
            return "the value of \(key) cannot be evaluated (\(error.message)): it is not set, as in sqlite3"
        }
        return nil
    }

    private func firstStatement(_ sql: String) throws -> Statement {
        let bytes = Array(sql.utf8CString)
        return try bytes.withUnsafeBufferPointer { buffer in
            let prepared = try connection.prepareFirst(of: buffer.baseAddress!, byteCount: buffer.count - 1)
            guard let statement = prepared.statement else {
                throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no statement", sql: sql)
            }
            return statement
        }
    }

    /// The shell's `bind_prepared_stmt`: binds every parameter of `statement` from the table,
    /// when the table exists.
    func bind(_ statement: Statement) throws {
        let count = statement.parameterCount
        guard count > 0 else { return }
        let lookup: Statement
        do {
            lookup = try connection.prepare("SELECT value FROM temp.sqlite_parameters WHERE key=?1")
        } catch is SQLiteError {
            return // no parameter table: the parameters stay NULL
        }
        for index in 1...Int32(count) {
            let name = statement.parameterName(at: index) ?? "?\(index)"
            try lookup.bind(.text(name), at: 1)
            let value: DatabaseValue = try lookup.step() ? lookup.column(0) : .null
            _ = lookup.reset()
            try statement.bind(value, at: index)
        }
    }
}
