/// A pulled row: the cells of one row the device has not seen.
public struct SyncPulledRow: Hashable, Sendable {
    /// Index into the answer's ``SyncAnswer/tables``.
    public var table: Int
    /// The row's key.
    public var key: SyncValue
    /// The cells: column 0 is the row cell (``SyncCellContent/row(exists:)``), others carry
    /// values (never increments: a counter's value is the server's sum).
    public var cells: [SyncPulledCell]

    /// A pulled row of `table` keyed `key`.
    public init(table: Int, key: SyncValue, cells: [SyncPulledCell]) {
        self.table = table
        self.key = key
        self.cells = cells
    }
}
