/// The kinds of row the sync writes into `shipyard_sync_conflicts` (its `kind` column), for the
/// app to read, show and delete.
public enum SyncConflictKind: String, Sendable, CaseIterable {
    /// The server refused the device's edit of a `reject` cell; the device now has the server's
    /// value, the row keeps what the device had written.
    case rejected = "rejected"
    /// The device edited a row another device had deleted: the edit was dropped.
    case editOfDeletedRow = "edit-of-deleted-row"
    /// The device deleted a row of a `reject` table: the server refused and the row came back.
    case deleteRefused = "delete-refused"
    /// A row whose parent (FOREIGN KEY) no longer exists after the sync was deleted (and the
    /// delete synced).
    case orphaned = "orphaned"
    /// A local row that blocked a UNIQUE constraint of a row from the server was deleted (and the
    /// delete synced).
    case uniqueConflict = "unique-conflict"
    /// A user row refers to a shipped row that no longer exists (recorded by LayeredDatabase when
    /// the shipped data changes).
    case danglingReference = "dangling-reference"
}
