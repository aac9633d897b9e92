import SyncProtocol

/// A cell as the server keeps it (a row of `shipyard_cells`): its value and the edit that set it.
struct StoredCell: Hashable, Sendable {
    /// The value (the row cell's: the integer 1 exists, 0 deleted).
    var value: SyncValue
    /// The edit that set it.
    var stamp: SyncEditStamp
}

/// A cell the server writes for a request, before it is given its `seq`.
struct CellWrite: Hashable, Sendable {
    /// The column's name as the server's schema spells it (`""`: the row cell).
    var column: String
    /// The new value.
    var value: SyncValue
    /// The edit now in force.
    var stamp: SyncEditStamp
    /// Whether the device's own value was taken as it sent it, so the device has it and the pull
    /// of this request leaves it out (a counter's sum is never as sent).
    var asSent: Bool
}
