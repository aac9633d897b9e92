import SQLiteCore

/// Where a script wrote the rows of its sync declaration tables (`shipyard_sync`,
/// `shipyard_references`), so a refused declaration is reported at the statement that inserted
/// it: after each statement that inserted into one, the table's greatest `rowid` is recorded with
/// the statement's place; a row belongs to the first statement whose greatest `rowid` reaches it.
final class DeclarationSites {
    /// The declaration tables watched (lowercase).
    static let catalogs: Set<String> = ["shipyard_sync", "shipyard_references"]

    private var sites: [String: [(lastRowID: Int64, location: SourceLocation)]] = [:]

    /// Records `location` for each declaration table among `inserted` (lowercase names).
    func statementRan(at location: SourceLocation, inserted: Set<String>, on connection: Connection) {
        for catalog in inserted.intersection(Self.catalogs) {
            // A WITHOUT ROWID table has no rowid: its rows are then reported at the script.
            guard case .integer(let last)? = try? connection.scalar("SELECT max(rowid) FROM main.\(catalog)") else {
                continue
            }
            sites[catalog, default: []].append((last, location))
        }
    }

    /// The place of the statement that inserted row `rowID` of `catalog`, when known.
    func location(ofRow rowID: Int64, in catalog: String) -> SourceLocation? {
        sites[catalog.lowercased()]?.first { $0.lastRowID >= rowID }?.location
    }
}
