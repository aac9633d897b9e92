import Logging
import NIOCore
import PostgresNIO
import SyncProtocol

/// The pull (docs/Sync.md, "The pull"): the cells of the space after the device's cursor, oldest
/// first, up to the limit, less what this request's own batch wrote as sent, grouped by row; a
/// new or revived row whole, a deleted row as its row cell alone, and nothing of a row this
/// request's own batch deleted.
struct PullReader {
    let space: String
    let schema: SyncSchema
    let logger: Logger

    /// The answer being built: its tables (with each table's column indexes) and rows.
    private struct Assembly {
        var tableIndex: [String: Int] = [:]
        var columnIndex: [[String: Int]] = []
        var order: [RowKey] = []
        var rows: [RowKey: (table: Int, key: SyncValue, cells: [Int: SyncCellContent])] = [:]
        var hlc: HLC = .zero
    }

    /// Fills `answer`'s tables, rows, cursor, hlc and `more` with the cells after `cursor`.
    func pull(
        after cursor: Int64, limit: Int, applied: SyncStore.Applied?, into answer: inout SyncAnswer,
        _ connection: PostgresConnection
    ) async throws {
        // The bound first, then the cells up to it (each statement sees every commit the one
        // before saw): a seq at or below the bound belongs to a committed writer, since writers
        // of a space take their seqs in turn under its row lock.
        let bound: Int64
        if let applied {
            bound = applied.bound
        } else {
            var found: Int64 = 0
            for try await seq in try await connection.query(
                "SELECT seq FROM shipyard_spaces WHERE space = \(space)", logger: logger
            ).decode(Int64.self) {
                found = seq
            }
            bound = found
        }
        let own = applied?.ownSeqs ?? []
        let deletedHere = applied?.deletedRows ?? []
        var assembly = Assembly()
        var wholeRows: [RowKey] = applied?.restoredRows ?? []
        var sent = 0
        var lastSent = cursor
        var more = false
        if cursor < bound {
            let rows = try await connection.query(
                """
                SELECT tbl, pk, col, value, hlc, seq FROM shipyard_cells
                WHERE space = \(space) AND seq > \(cursor) AND seq <= \(bound) ORDER BY seq LIMIT \(limit + 1 + own.count)
                """, logger: logger)
            for try await (table, pk, column, value, hlc, seq) in rows.decode(
                (String, ByteBuffer, String, ByteBuffer, Int64, Int64).self)
            {
                if own.contains(seq) { continue }
                let key = RowKey(table: table, key: pk.bytes)
                // Counted against the limit, so the cursor still moves past it.
                if deletedHere.contains(key) {
                    if sent == limit { more = true; continue }
                    sent += 1
                    lastSent = seq
                    continue
                }
                if sent == limit {
                    more = true
                    continue
                }
                sent += 1
                lastSent = seq
                let content = try add(key, column, value, HLC(rawValue: hlc), to: &assembly)
                if column.isEmpty, content == .row(exists: true) { wholeRows.append(key) }
            }
        }
        if !wholeRows.isEmpty { try await addWholeRows(wholeRows, to: &assembly, connection) }
        answer.tables = schemaTables(of: assembly)
        answer.rows = assembly.order.compactMap { key in
            guard let row = assembly.rows[key] else { return nil }
            let rowCell = row.cells[0]
            let cells: [SyncPulledCell] =
                rowCell == .row(exists: false)
                ? [SyncPulledCell(column: 0, content: .row(exists: false))]
                : row.cells.sorted { $0.key < $1.key }.map { SyncPulledCell(column: $0.key, content: $0.value) }
            return SyncPulledRow(table: row.table, key: row.key, cells: cells)
        }
        answer.cursor = UInt64(max(more ? lastSent : bound, 0))
        answer.more = more
        answer.hlc = max(assembly.hlc, applied?.resultHLC ?? .zero)
    }

    /// Adds one stored cell to its row, registering its table and column; a table or column the
    /// schema no longer syncs is left out. Returns what was added.
    @discardableResult
    private func add(_ key: RowKey, _ column: String, _ value: ByteBuffer, _ hlc: HLC, to assembly: inout Assembly)
        throws
        -> SyncCellContent?
    {
        guard let table = schema.table(named: key.table) else { return nil }
        let tableIndex: Int
        if let known = assembly.tableIndex[table.name] {
            tableIndex = known
        } else {
            tableIndex = assembly.columnIndex.count
            assembly.tableIndex[table.name] = tableIndex
            var columns: [String: Int] = ["": 0]
            for (i, column) in table.columns.enumerated() { columns[column.name] = i + 1 }
            assembly.columnIndex.append(columns)
        }
        guard let columnIndex = assembly.columnIndex[tableIndex][column] else { return nil }
        let decoded = try SyncValue.stored(value, "value of \(key.table).\(column)")
        let content: SyncCellContent = columnIndex == 0 ? .row(exists: decoded != .integer(0)) : .value(decoded)
        if assembly.rows[key] == nil {
            let decodedKey = try SyncValue.stored(ByteBuffer(bytes: key.key), "key of a row of \(key.table)")
            assembly.order.append(key)
            assembly.rows[key] = (tableIndex, decodedKey, [:])
        }
        assembly.rows[key]?.cells[columnIndex] = content
        if hlc > assembly.hlc { assembly.hlc = hlc }
        return content
    }

    /// Adds every stored cell of `keys` (new, revived or restored rows) in one statement.
    private func addWholeRows(_ keys: [RowKey], to assembly: inout Assembly, _ connection: PostgresConnection)
        async throws
    {
        let tables = keys.map(\.table)
        let pks = keys.map { ByteBuffer(bytes: $0.key) }
        let rows = try await connection.query(
            """
            SELECT c.tbl, c.pk, c.col, c.value, c.hlc
            FROM unnest(\(tables)::text[], \(pks)::bytea[]) AS k(tbl, pk)
            JOIN shipyard_cells c ON c.space = \(space) AND c.tbl = k.tbl AND c.pk = k.pk
            """, logger: logger)
        for try await (table, pk, column, value, hlc) in rows.decode(
            (String, ByteBuffer, String, ByteBuffer, Int64).self)
        {
            try add(RowKey(table: table, key: pk.bytes), column, value, HLC(rawValue: hlc), to: &assembly)
        }
    }

    /// The answer's table list: each table with the schema's synced columns, in index order.
    private func schemaTables(of assembly: Assembly) -> [SyncTableColumns] {
        assembly.tableIndex.sorted { $0.value < $1.value }.compactMap { name, _ in
            schema.table(named: name).map { SyncTableColumns(name: $0.name, columns: $0.columns.map(\.name)) }
        }
    }
}
