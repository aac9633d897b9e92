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

/// Why a change was not taken as sent.
public enum SyncOutcome: UInt8, Hashable, Sendable, CaseIterable {
    /// A later edit of the cell won (`last-edit-wins`).
    case superseded = 1
    /// The server kept its value (`keep-server`).
    case keptServer = 2
    /// The change was refused (`reject`); the device records a conflict.
    case rejected = 3
    /// The row had been deleted on the server; the edit was dropped.
    case editOfDeletedRow = 4
    /// The delete was refused (`keep-server`, `reject`, or the row was inserted again later).
    case deleteRefused = 5
}

/// A pulled row: the cells of one row the device has not seen.
public struct SyncPulledRow: Hashable, Sendable {
    /// Index into the answer's ``SyncAnswer/tables``.
    public var table: Int
    /// The row's key.
    public var key: SyncValue
    /// The cells: column 0 is the row cell (``SyncCellContent/row(exists:)``), others carry
    /// values (never increments: a counter's value is the server's sum).
    public var cells: [SyncPulledCell]

    /// A pulled row of `table` keyed `key`.
    public init(table: Int, key: SyncValue, cells: [SyncPulledCell]) {
        self.table = table
        self.key = key
        self.cells = cells
    }
}

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
