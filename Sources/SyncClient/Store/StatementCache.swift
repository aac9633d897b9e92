import LayeredDatabase

/// The statements an apply runs once per pulled row, prepared once per sync and reset after each
/// use (so none holds a read transaction open): preparing them again for every row of a large
/// pull cost most of its time.
final class StatementCache {
    let connection: Connection
    private var statements: [String: Statement] = [:]

    init(_ connection: Connection) { self.connection = connection }

    /// The rows of `sql` with `arguments` bound.
    func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
        let statement = try statements[sql] ?? connection.prepare(sql)
        statements[sql] = statement
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [[DatabaseValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// Runs `sql` with `arguments` bound.
    func run(_ sql: String, _ arguments: [DatabaseValue] = []) throws { _ = try rows(sql, arguments) }
}
