import LayeredDatabase
import SyncProtocol

/// A batch frozen in `shipyard_sync_inflight`: its cells as stored, and the wire batch made of
/// them. Made again from the table for every send, the same cells give the same batch (tables
/// and columns listed in the order they first appear), so a resent batch is the same bytes.
struct FrozenBatch {
    /// One cell as frozen: `column` is `''` for the row cell.
    struct Cell: Equatable {
        var column: String
        /// 1 exists, 0 deleted (row cell); 2 a value; 3 a counter increment.
        var op: Int64
        var value: DatabaseValue
        var delta: Int64
        var hlc: Int64
    }

    /// One row of the batch.
    struct Row: Equatable {
        var table: String
        var key: DatabaseValue
        var cells: [Cell]
    }

    var id: UInt64
    var rows: [Row]

    /// The wire batch.
    var batch: SyncBatch {
        var tables: [SyncTableColumns] = []
        var tableIndex: [String: Int] = [:]
        var columnIndex: [String: [String: Int]] = [:]
        var changes: [SyncRowChange] = []
        for row in rows {
            let table: Int
            if let known = tableIndex[row.table] {
                table = known
            } else {
                table = tables.count
                tableIndex[row.table] = table
                tables.append(SyncTableColumns(name: row.table, columns: []))
            }
            var cells: [SyncCellChange] = []
            for cell in row.cells {
                let column: Int
                if cell.column.isEmpty {
                    column = 0
                } else if let known = columnIndex[row.table]?[cell.column] {
                    column = known
                } else {
                    tables[table].columns.append(cell.column)
                    column = tables[table].columns.count
                    columnIndex[row.table, default: [:]][cell.column] = column
                }
                let change: SyncCellContent
                switch cell.op {
                case 0, 1: change = .row(exists: cell.op == 1)
                case 3: change = .increment(cell.delta)
                default: change = .value(SyncValue(cell.value))
                }
                cells.append(SyncCellChange(column: column, hlc: HLC(rawValue: cell.hlc), change: change))
            }
            changes.append(SyncRowChange(table: table, key: SyncValue(row.key), cells: cells))
        }
        return SyncBatch(id: id, tables: tables, rows: changes)
    }

    /// The cell a result of the answer names: row `row` of the request, column index `column`
    /// (0: the row cell) of its table's list; nil when there is none.
    func cell(row: Int, column: Int, in batch: SyncBatch) -> (row: Row, cell: Cell)? {
        guard rows.indices.contains(row) else { return nil }
        let frozen = rows[row]
        let wire = batch.rows[row]
        guard batch.tables.indices.contains(wire.table) else { return nil }
        let name: String
        if column == 0 {
            name = ""
        } else {
            let columns = batch.tables[wire.table].columns
            guard columns.indices.contains(column - 1) else { return nil }
            name = columns[column - 1]
        }
        guard let cell = frozen.cells.first(where: { $0.column == name }) else { return nil }
        return (frozen, cell)
    }

    /// The batch in flight, or nil when there is none.
    static func load(_ connection: Connection) throws -> FrozenBatch? {
        var id: UInt64?
        var rows: [Row] = []
        var last: Int64 = -1
        for record in try connection.query(
            "SELECT batch, row, tbl, pk, col, op, value, delta, hlc FROM main.shipyard_sync_inflight ORDER BY row, cell"
        ) {
            id = id ?? UInt64(max(record[0].integer ?? 0, 0))
            let cell = Cell(
                column: record[4].shellText, op: record[5].integer ?? 2, value: record[6],
                delta: record[7].integer ?? 0, hlc: record[8].integer ?? 0)
            let row = record[1].integer ?? 0
            if row != last || rows.isEmpty {
                rows.append(Row(table: record[2].shellText, key: record[3], cells: []))
                last = row
            }
            rows[rows.count - 1].cells.append(cell)
        }
        return id.map { FrozenBatch(id: $0, rows: rows) }
    }

    /// Writes the batch into `shipyard_sync_inflight`.
    func store(_ connection: Connection) throws {
        let insert = try connection.prepare(
            """
            INSERT INTO main.shipyard_sync_inflight (batch, row, cell, tbl, pk, col, op, value, delta, hlc)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (rowIndex, row) in rows.enumerated() {
            for (cellIndex, cell) in row.cells.enumerated() {
                insert.reset()
                try insert.bind([
                    .integer(Int64(id)), .integer(Int64(rowIndex)), .integer(Int64(cellIndex)), .text(row.table),
                    row.key, .text(cell.column), .integer(cell.op), cell.value,
                    cell.op == 3 ? .integer(cell.delta) : .null, .integer(cell.hlc),
                ])
                while try insert.step() {}
            }
        }
    }
}
