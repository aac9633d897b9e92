import SyncProtocol

/// A request's batch checked against the server's schema and clock: every table and column
/// syncs, counters carry increments and other columns values, no clock is too far ahead; the
/// HLCs above the server's clock are clamped to it.
struct CheckedBatch: Sendable {
    /// The batch as received (its canonical bytes are what the replay hash covers).
    var batch: SyncBatch
    /// Per table of the batch: the schema's table.
    var tables: [SyncSchema.Table]
    /// Per table of the batch: the schema's column for each of its cell column indexes (`i + 1`).
    var columns: [[SyncSchema.Column]]
    /// The rows, with clamped HLCs.
    var rows: [SyncRowChange]

    /// The number of cells in the batch: the most `seq` numbers it can use.
    var cellCount: Int { rows.reduce(0) { $0 + $1.cells.count } }

    /// Checks `batch` against `schema` at server time `nowMilliseconds`, refusing clocks more than
    /// `maximumSkewMilliseconds` ahead.
    init(_ batch: SyncBatch, schema: SyncSchema, nowMilliseconds: Int64, maximumSkewMilliseconds: Int64) throws {
        self.batch = batch
        var tables: [SyncSchema.Table] = []
        var columns: [[SyncSchema.Column]] = []
        for (t, named) in batch.tables.enumerated() {
            guard let table = schema.table(named: named.name) else {
                throw SyncServerError.unprocessable("request.batch.tables[\(t)]: table '\(named.name)' does not sync")
            }
            tables.append(table)
            columns.append(
                try named.columns.enumerated().map { c, name in
                    guard let column = table.column(named: name) else {
                        throw SyncServerError.unprocessable(
                            "request.batch.tables[\(t)].columns[\(c)]: column '\(name)' of table '\(table.name)' does not sync"
                        )
                    }
                    return column
                })
        }
        let ceiling = HLC.ceiling(ofMilliseconds: nowMilliseconds)
        let limit = nowMilliseconds + maximumSkewMilliseconds
        var rows = batch.rows
        for r in rows.indices {
            let tableColumns = columns[rows[r].table]
            for c in rows[r].cells.indices {
                let cell = rows[r].cells[c]
                let field = "request.batch.rows[\(r)].cells[\(c)]"
                if cell.hlc.milliseconds > limit {
                    throw SyncServerError.badRequest(
                        "\(field): the edit's clock is \(cell.hlc.milliseconds - nowMilliseconds) ms ahead of the server's "
                            + "(at most \(maximumSkewMilliseconds) ms allowed; server clock \(nowMilliseconds))")
                }
                if cell.hlc > ceiling { rows[r].cells[c].hlc = ceiling }
                guard cell.column > 0 else { continue }
                let column = tableColumns[cell.column - 1]
                switch (column.rule, cell.change) {
                case (.counter, .increment), (.lastEditWins, .value), (.keepServer, .value), (.reject, .value),
                    (.uniqueKey, .value):
                    break
                case (.counter, _):
                    throw SyncServerError.badRequest(
                        "\(field): column '\(column.name)' is a counter: it takes increments")
                default:
                    throw SyncServerError.badRequest(
                        "\(field): column '\(column.name)' is \(column.rule.rawValue), not a counter: it takes values")
                }
            }
        }
        self.tables = tables
        self.columns = columns
        self.rows = rows
    }
}
