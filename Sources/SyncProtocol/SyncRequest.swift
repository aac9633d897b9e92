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

/// A batch of changes: an id (1, 2, … per device; the server applies each once), the tables
/// and columns it names, and its rows.
public struct SyncBatch: Hashable, Sendable {
    /// The batch id, at least 1.
    public var id: UInt64
    /// The tables the rows refer to by index, each with the columns its cells refer to
    /// (column index `i + 1` is `columns[i]`; 0 is the row cell).
    public var tables: [SyncTableColumns]
    /// The changed rows.
    public var rows: [SyncRowChange]

    /// A batch `id` of `rows` over `tables`.
    public init(id: UInt64, tables: [SyncTableColumns], rows: [SyncRowChange]) {
        self.id = id
        self.tables = tables
        self.rows = rows
    }
}

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

/// The content of a cell in a message.
public enum SyncCellContent: Hashable, Sendable {
    /// The row cell (column 0): the row exists (inserted) or is deleted.
    case row(exists: Bool)
    /// A column's new value.
    case value(SyncValue)
    /// A `counter` column's increment (in a request only).
    case increment(Int64)
}
