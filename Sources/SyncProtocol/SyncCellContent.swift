/// The content of a cell in a message.
public enum SyncCellContent: Hashable, Sendable {
    /// The row cell (column 0): the row exists (inserted) or is deleted.
    case row(exists: Bool)
    /// A column's new value.
    case value(SyncValue)
    /// A `counter` column's increment (in a request only).
    case increment(Int64)
}
