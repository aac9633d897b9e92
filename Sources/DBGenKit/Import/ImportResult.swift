/// What an import did.
struct ImportResult: Equatable, Sendable {
    var rowsInserted: Int
    var createdTable: Bool
    var warnings: Int

    init(rowsInserted: Int, createdTable: Bool, warnings: Int) {
        self.rowsInserted = rowsInserted
        self.createdTable = createdTable
        self.warnings = warnings
    }
}
