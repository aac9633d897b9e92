/// What a device sends to the server (`POST /v1/sync`): its cursor and clock, and a batch of
/// changes when it has one. docs/Sync.md's "Request" says how it is encoded
/// (``encoded(compression:)``, ``init(decoding:limits:)``).
public struct SyncRequest: Hashable, Sendable {
    /// The device.
    public var device: SyncDeviceID
    /// The server `seq` the device has applied up to (0 at first).
    public var cursor: UInt64
    /// The device's clock, milliseconds since 1970 UTC.
    public var clock: UInt64
    /// The most cells wanted in the answer (0: the server's default).
    public var limit: UInt64
    /// The changes sent, or nil when there is nothing to send.
    public var batch: SyncBatch?

    /// A request from `device`.
    public init(device: SyncDeviceID, cursor: UInt64, clock: UInt64, limit: UInt64 = 0, batch: SyncBatch? = nil) {
        self.device = device
        self.cursor = cursor
        self.clock = clock
        self.limit = limit
        self.batch = batch
    }
}
