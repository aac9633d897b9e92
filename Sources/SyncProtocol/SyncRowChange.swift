/// The changed cells of one row of a batch.
public struct SyncRowChange: Hashable, Sendable {
    /// Index into the batch's ``SyncBatch/tables``.
    public var table: Int
    /// The row's key.
    public var key: SyncValue
    /// The row's changed cells (at least one; at most one per column).
    public var cells: [SyncCellChange]

    /// A row of `table` keyed `key` with `cells`.
    public init(table: Int, key: SyncValue, cells: [SyncCellChange]) {
        self.table = table
        self.key = key
        self.cells = cells
    }
}
