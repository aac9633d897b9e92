/// What is wrong with a declaration of what syncs (`shipyard_sync`) or of references to shipped
/// rows (`shipyard_references`): the table and column it is about, why it is refused and how to
/// fix it. `dbgen` prints it at the script line that wrote the declaration; the migrator reports
/// it as the failure of the step (``LayeredDatabaseError/migrationFailed(version:identifier:underlying:)``).
public struct SyncDeclarationProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The declaration table the problem was found in: `shipyard_sync` or `shipyard_references`.
    public var catalog: String
    /// The table the declaration is about (as the declaration or the schema spells it), when known.
    public var table: String?
    /// The column the declaration is about, when it is about one.
    public var column: String?
    /// Why it is refused.
    public var reason: String
    /// How to fix it.
    public var fix: String
    /// The `rowid` of the declaration row in ``catalog``, when the problem is one row's: what
    /// lets `dbgen` point at the script statement that inserted it.
    public var declarationRowID: Int64?

    /// A problem of `catalog` about `table` (and `column`).
    public init(
        catalog: String = "shipyard_sync", table: String?, column: String? = nil, reason: String, fix: String,
        declarationRowID: Int64? = nil
    ) {
        self.catalog = catalog
        self.table = table
        self.column = column
        self.reason = reason
        self.fix = fix
        self.declarationRowID = declarationRowID
    }

    /// `shipyard_sync: table "item", column "n": REASON; FIX`.
    public var description: String {
        var subject = catalog
        if let table { subject += ": table \"\(table)\"" }
        if let column { subject += ", column \"\(column)\"" }
        return "\(subject): \(reason); \(fix)"
    }
}
