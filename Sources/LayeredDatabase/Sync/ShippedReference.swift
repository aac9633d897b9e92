import SQLiteCore
import SyncProtocol

/// A column of the user database that holds the key of a shipped row: one row of
/// `shipyard_references`.
public struct ShippedReference: Hashable, Sendable {
    /// The user table and its column holding the shipped key.
    public var table: String
    public var column: String
    /// The shipped table and the column the key matches.
    public var shippedTable: String
    public var shippedColumn: String

    /// A reference from `table.column` to `shippedTable.shippedColumn`.
    public init(table: String, column: String, shippedTable: String, shippedColumn: String) {
        self.table = table
        self.column = column
        self.shippedTable = shippedTable
        self.shippedColumn = shippedColumn
    }

    /// The reference a row declares, its user side checked against the schema (the shipped
    /// side is checked when the shipped database is attached: ``DanglingReferences``).
    static func validated(_ row: DeclarationRows.Row, _ connection: Connection) throws -> ShippedReference {
        let catalog = SyncDeclarations.referencesCatalog
        func problem(_ table: String?, _ column: String?, _ reason: String, _ fix: String) -> SyncDeclarationProblem {
            SyncDeclarationProblem(
                catalog: catalog, table: table, column: column, reason: reason, fix: fix,
                declarationRowID: row.rowID)
        }
        var texts: [String] = []
        for (index, name) in ["table_name", "column_name", "shipped_table", "shipped_column"].enumerated() {
            guard let text = row.values[index].textValue, !text.isEmpty else {
                throw problem(
                    row.values[0].textValue, row.values[1].textValue, "\(name) is \(row.values[index].kindName)",
                    "give every column of the row as text")
            }
            texts.append(text)
        }
        guard let shape = try TableShape.read(texts[0], on: connection) else {
            throw problem(
                texts[0], nil, "no such table in the user database",
                "name a table of the user database (the shipped one is read, never written)")
        }
        guard let column = shape.column(named: texts[1]) else {
            throw problem(shape.name, texts[1], "no such column", "name a column of \(shape.name)")
        }
        return ShippedReference(
            table: shape.name, column: column.name, shippedTable: texts[2], shippedColumn: texts[3])
    }
}
