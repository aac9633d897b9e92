/// A batch of changes: an id (1, 2, … per device; the server applies each once), the tables
/// and columns it names, and its rows.
public struct SyncBatch: Hashable, Sendable {
    /// The batch id, at least 1.
    public var id: UInt64
    /// The tables the rows refer to by index, each with the columns its cells refer to
    /// (column index `i + 1` is `columns[i]`; 0 is the row cell).
    public var tables: [SyncTableColumns]
    /// The changed rows.
    public var rows: [SyncRowChange]

    /// A batch `id` of `rows` over `tables`.
    public init(id: UInt64, tables: [SyncTableColumns], rows: [SyncRowChange]) {
        self.id = id
        self.tables = tables
        self.rows = rows
    }
}
