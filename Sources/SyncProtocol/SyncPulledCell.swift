/// One pulled cell.
public struct SyncPulledCell: Hashable, Sendable {
    /// Column index (0 = the row cell).
    public var column: Int
    /// The cell: ``SyncCellContent/row(exists:)`` for column 0, else ``SyncCellContent/value(_:)``.
    public var content: SyncCellContent

    /// The cell of `column` holding `content`.
    public init(column: Int, content: SyncCellContent) {
        self.column = column
        self.content = content
    }
}
