extension SyncAnswer {
    /// The answer in the wire format (docs/Sync.md, "Answer"), compressed as `compression` says.
    public func encoded(compression: SyncCompression = .whenSmaller) -> [UInt8] {
        var writer = WireWriter()
        writer.u8(WireEnvelope.version)
        writer.varint(clock)
        writer.varint(batch)
        writer.u8(status.rawValue)
        writer.varint(results.count)
        for result in results {
            writer.varint(result.row)
            writer.varint(result.column)
            writer.u8(result.outcome.rawValue)
            writer.value(result.server)
        }
        writer.tables(tables)
        writer.varint(rows.count)
        for row in rows {
            writer.varint(row.table)
            writer.value(row.key)
            writer.varint(row.cells.count)
            for cell in row.cells {
                writer.varint(cell.column)
                switch cell.content {
                case .row(let exists): writer.u8(exists ? 1 : 0)
                case .value(let value): writer.value(value)
                case .increment(let delta): writer.value(.integer(delta))
                }
            }
        }
        writer.varint(cursor)
        writer.varint(UInt64(max(hlc.rawValue, 0)))
        writer.u8(more ? 1 : 0)
        return WireEnvelope.seal(writer.bytes, compression: compression)
    }

    /// Decodes an answer, refusing what docs/Sync.md does not allow and what is over `limits`,
    /// naming the field.
    public init(decoding message: [UInt8], limits: SyncLimits = .standard) throws {
        var reader = try WireEnvelope.open(message, name: "answer", limits: limits)
        let clock = try reader.varint("answer.clock")
        let batch = try reader.varint("answer.batch")
        let statusByte = try reader.u8("answer.status")
        guard let status = Status(rawValue: statusByte) else {
            throw reader.malformed("answer.status", "unknown status \(statusByte)")
        }
        guard (status == .none) == (batch == 0) else {
            throw reader.malformed("answer.status", "status \(statusByte) for batch \(batch)")
        }
        let resultCount = try reader.count("answer.results")
        guard status != .none || resultCount == 0 else {
            throw reader.malformed("answer.results", "results for no batch")
        }
        var results: [SyncResult] = []
        results.reserveCapacity(resultCount)
        for i in 0..<resultCount {
            let row = try reader.varint("answer.results[\(i)].row")
            let column = try reader.varint("answer.results[\(i)].column")
            let outcomeByte = try reader.u8("answer.results[\(i)].outcome")
            guard row <= UInt64(Int32.max), column <= UInt64(Int32.max) else {
                throw reader.malformed("answer.results[\(i)]", "row or column index out of range")
            }
            guard let outcome = SyncOutcome(rawValue: outcomeByte) else {
                throw reader.malformed("answer.results[\(i)].outcome", "unknown outcome \(outcomeByte)")
            }
            let server = try reader.value("answer.results[\(i)].server")
            results.append(SyncResult(row: Int(row), column: Int(column), outcome: outcome, server: server))
        }
        let tables = try reader.tables("answer.tables")
        let rows = try Self.decodeRows(from: &reader, tables: tables, limits: limits)
        let cursor = try reader.varint("answer.cursor")
        let hlc = try reader.varint("answer.hlc")
        guard hlc <= UInt64(Int64.max) else { throw reader.malformed("answer.hlc", "\(hlc) is past the greatest HLC") }
        let moreByte = try reader.u8("answer.more")
        guard moreByte <= 1 else { throw reader.malformed("answer.more", "\(moreByte), not 0 or 1") }
        try reader.end("answer")
        self.init(
            clock: clock, batch: batch, status: status, results: results, tables: tables, rows: rows, cursor: cursor,
            hlc: HLC(rawValue: Int64(hlc)), more: moreByte == 1)
    }

    private static func decodeRows(from reader: inout WireReader, tables: [SyncTableColumns], limits: SyncLimits)
        throws -> [SyncPulledRow]
    {
        let rowCount = try reader.count("answer.rows", limit: limits.pulledRows)
        var rows: [SyncPulledRow] = []
        rows.reserveCapacity(rowCount)
        var keys = Set<RowIdentity>()
        for r in 0..<rowCount {
            let field = "answer.rows[\(r)]"
            let table = try reader.index("\(field).table", below: tables.count, of: "tables of the answer")
            let key = try reader.value("\(field).key")
            try SyncBatch.checkKey(key, field: "\(field).key", reader: reader)
            guard keys.insert(RowIdentity(table: table, key: key)).inserted else {
                throw reader.malformed("\(field).key", "a second row of table '\(tables[table].name)' with key \(key)")
            }
            let columnCount = tables[table].columns.count
            let cellCount = try reader.count("\(field).cells")
            guard cellCount > 0 else { throw reader.malformed("\(field).cells", "a row with no cells") }
            var cells: [SyncPulledCell] = []
            cells.reserveCapacity(cellCount)
            var seen = Set<Int>()
            for c in 0..<cellCount {
                let cellField = "\(field).cells[\(c)]"
                let column = try reader.index(
                    "\(cellField).column", below: columnCount + 1,
                    of: "columns of '\(tables[table].name)' and its row cell")
                guard seen.insert(column).inserted else {
                    throw reader.malformed("\(cellField).column", "column \(column) sent twice in one row")
                }
                let content: SyncCellContent =
                    column == 0
                    ? .row(exists: try SyncBatch.rowFlag(&reader, "\(cellField).payload"))
                    : .value(try reader.value("\(cellField).payload"))
                cells.append(SyncPulledCell(column: column, content: content))
            }
            rows.append(SyncPulledRow(table: table, key: key, cells: cells))
        }
        return rows
    }
}
