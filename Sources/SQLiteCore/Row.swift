/// One result row: column names and values in the order of the SELECT.
public struct Row: Equatable {
    /// The result column names (`sqlite3_column_name`).
    public let columnNames: [String]
    /// The values, one per column.
    public let values: [DatabaseValue]

    /// Creates a row.
    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The value at a column index.
    public subscript(index: Int) -> DatabaseValue { values[index] }

    /// The value of the first column with this name (case-insensitive, like SQLite), or nil.
    public subscript(name: String) -> DatabaseValue? {
        let lowered = name.lowercased()
        guard let index = columnNames.firstIndex(where: { $0.lowercased() == lowered }) else { return nil }
        return values[index]
    }
}
