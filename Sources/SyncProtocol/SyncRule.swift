/// How the server decides a change of a synced cell, as declared in the user schema's
/// `shipyard_sync` table (`rule` column). docs/Sync.md's rules table says what each does.
public enum SyncRule: String, Sendable, CaseIterable, Hashable {
    /// The later edit, ordered by `(hlc, device)`, wins.
    case lastEditWins = "last-edit-wins"
    /// The value is the sum of every device's increments, each added exactly once.
    case counter = "counter"
    /// The server's value stays; a device's edit of a cell with a value is dropped.
    case keepServer = "keep-server"
    /// A device's edit of a cell with a value is refused and reported as a conflict on the device.
    case reject = "reject"
    /// Only on the key column: an INTEGER key declared unique across devices (random 63-bit ids).
    case uniqueKey = "unique-key"
}
