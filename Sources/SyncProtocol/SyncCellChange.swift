/// One changed cell of a row: which column, when, and what.
public struct SyncCellChange: Hashable, Sendable {
    /// The column index: 0 is the row cell, `i + 1` the table's `columns[i]`.
    public var column: Int
    /// When the edit was made on the device.
    public var hlc: HLC
    /// What changed.
    public var change: SyncCellContent

    /// A change of `column` at `hlc`.
    public init(column: Int, hlc: HLC, change: SyncCellContent) {
        self.column = column
        self.hlc = hlc
        self.change = change
    }
}
