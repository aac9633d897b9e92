import ShipyardVersion

/// DBGenKit builds a SQLite database from a schema script in the sqlite3 shell's dialect
/// (SQL plus dot-commands such as `.mode`, `.separator`, `.import`, `.read`) and the CSV
/// files it imports. It holds all of `dbgen`'s logic; the executable only parses arguments.
public enum DBGenKit {
    /// The version reported by `dbgen --version` (Shipyard's one version number).
    public static var version: String { ShipyardVersion.current }
}
