/// A change of the batch the server did not take as sent, and the server's value now.
public struct SyncResult: Hashable, Sendable {
    /// Index of the row in the request's batch.
    public var row: Int
    /// Column index (0 = the row cell).
    public var column: Int
    /// What happened to the change.
    public var outcome: SyncOutcome
    /// The server's value now (row cell: the integer 1 exists, 0 deleted).
    public var server: SyncValue

    /// The result of the change of `column` in `row`.
    public init(row: Int, column: Int, outcome: SyncOutcome, server: SyncValue) {
        self.row = row
        self.column = column
        self.outcome = outcome
        self.server = server
    }
}
