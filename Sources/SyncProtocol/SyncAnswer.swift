/// What the server answers a ``SyncRequest``: its clock, what became of the batch, and the
/// changes the device has not seen (the pull). docs/Sync.md's "Answer" says how it is encoded
/// (``encoded(compression:)``, ``init(decoding:limits:)``).
public struct SyncAnswer: Hashable, Sendable {
    /// The server's clock, milliseconds since 1970 UTC.
    public var clock: UInt64
    /// The batch id answered (0: none).
    public var batch: UInt64
    /// What became of the batch.
    public var status: Status
    /// Each change of the batch not taken as sent.
    public var results: [SyncResult]
    /// The tables the pulled rows refer to by index, with their columns.
    public var tables: [SyncTableColumns]
    /// The pulled rows: cells of the space the device has not seen, grouped by row.
    public var rows: [SyncPulledRow]
    /// The new cursor.
    public var cursor: UInt64
    /// The greatest HLC of what this answer carries (``HLC/zero``: none).
    public var hlc: HLC
    /// Whether cells remain after the last one sent: ask again.
    public var more: Bool

    /// An answer; every part but the clock is empty unless given.
    public init(
        clock: UInt64, batch: UInt64 = 0, status: Status = .none, results: [SyncResult] = [],
        tables: [SyncTableColumns] = [], rows: [SyncPulledRow] = [], cursor: UInt64 = 0, hlc: HLC = .zero,
        more: Bool = false
    ) {
        self.clock = clock
        self.batch = batch
        self.status = status
        self.results = results
        self.tables = tables
        self.rows = rows
        self.cursor = cursor
        self.hlc = hlc
        self.more = more
    }

    /// What became of a request's batch.
    public enum Status: UInt8, Hashable, Sendable {
        /// No batch was sent.
        case none = 0
        /// The batch was applied now.
        case applied = 1
        /// The batch had been applied before; its results are those of then.
        case replayed = 2
    }
}
