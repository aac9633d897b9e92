/// LayeredDatabase opens a writable user database (created from a template on first use)
/// with a shipped, read-only database ATTACHed beside it.
public enum LayeredDatabaseInfo {
    public static let version = "0.1.0"
}
