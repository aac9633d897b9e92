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
