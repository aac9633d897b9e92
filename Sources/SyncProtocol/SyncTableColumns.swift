/// A table named in a message, with the columns its cells refer to by index.
public struct SyncTableColumns: Hashable, Sendable {
    /// The table's name.
    public var name: String
    /// Its columns: cell column index `i + 1` is `columns[i]`.
    public var columns: [String]

    /// The table `name` with `columns`.
    public init(name: String, columns: [String]) {
        self.name = name
        self.columns = columns
    }
}
