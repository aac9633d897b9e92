/// What one sync did.
public struct SyncReport: Equatable, Sendable {
    /// Cells of local edits the server acknowledged (each inserted or deleted row counts its row
    /// cell; each edited column, its cell).
    public var sent: Int
    /// Rows received from the server and applied.
    public var received: Int
    /// Rows the sync wrote into `shipyard_sync_conflicts`.
    public var conflicts: Int
    /// HTTP requests made.
    public var requests: Int
    /// Bytes of request bodies sent and of answer bodies received.
    public var bytesSent: Int
    public var bytesReceived: Int
    /// The server `seq` the device has applied up to, after the sync.
    public var cursor: UInt64

    /// A report.
    public init(
        sent: Int = 0, received: Int = 0, conflicts: Int = 0, requests: Int = 0, bytesSent: Int = 0,
        bytesReceived: Int = 0, cursor: UInt64 = 0
    ) {
        self.sent = sent
        self.received = received
        self.conflicts = conflicts
        self.requests = requests
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.cursor = cursor
    }
}
