extension SyncRequest {
    /// The request in the wire format (docs/Sync.md, "Request"), compressed as `compression` says.
    ///
    /// The batch's HLC milliseconds are written relative to the previous cell's (the first to a
    /// base, the first cell's). Precondition: the indexes are in range (a decoder refuses what this
    /// would write otherwise).
    public func encoded(compression: SyncCompression = .whenSmaller) -> [UInt8] {
        var writer = WireWriter()
        writer.u8(WireEnvelope.version)
        writer.bytes.append(contentsOf: device.bytes)
        writer.varint(cursor)
        writer.varint(clock)
        writer.varint(limit)
        if let batch {
            precondition(batch.id != 0, "a batch id is at least 1")
            writer.bytes.append(contentsOf: batch.encodedBody())
        } else {
            writer.varint(0 as UInt64)
        }
        return WireEnvelope.seal(writer.bytes, compression: compression)
    }

    /// Decodes a request, refusing anything docs/Sync.md does not allow (trailing bytes,
    /// unknown flags or tags, invalid UTF-8, overlong varints, lengths past the end, indexes out
    /// of range, a row or cell listed twice) and anything over `limits`, naming the field.
    public init(decoding message: [UInt8], limits: SyncLimits = .standard) throws {
        var reader = try WireEnvelope.open(message, name: "request", limits: limits)
        let device = try reader.uuid("request.device")
        let cursor = try reader.varint("request.cursor")
        let clock = try reader.varint("request.clock")
        let limit = try reader.varint("request.limit")
        let batchID = try reader.varint("request.batch")
        var batch: SyncBatch? = nil
        if batchID != 0 {
            batch = try SyncBatch.decodeBody(id: batchID, from: &reader, limits: limits)
        }
        try reader.end("request")
        self.init(device: device, cursor: cursor, clock: clock, limit: limit, batch: batch)
    }
}

extension SyncBatch {
    /// The batch as the request carries it, from its id on, never compressed: the same batch
    /// always gives the same bytes, so a server can hash them to tell a replay from a reused id.
    public func encodedBody() -> [UInt8] {
        var writer = WireWriter()
        writer.varint(id)
        writer.tables(tables)
        let baseMilliseconds = rows.first?.cells.first?.hlc.milliseconds ?? 0
        writer.varint(UInt64(baseMilliseconds))
        writer.varint(rows.count)
        var previous = baseMilliseconds
        for row in rows {
            writer.varint(row.table)
            writer.value(row.key)
            writer.varint(row.cells.count)
            for cell in row.cells {
                switch cell.change {
                case .row: precondition(cell.column == 0, "only column 0 (the row cell) carries .row")
                default: precondition(cell.column > 0, "column 0 (the row cell) carries .row only")
                }
                let isIncrement: Bool
                if case .increment = cell.change { isIncrement = true } else { isIncrement = false }
                writer.varint(UInt64(cell.column) << 1 | (isIncrement ? 1 : 0))
                writer.svarint(cell.hlc.milliseconds - previous)
                previous = cell.hlc.milliseconds
                writer.varint(UInt64(cell.hlc.logical))
                switch cell.change {
                case .row(let exists): writer.u8(exists ? 1 : 0)
                case .increment(let delta): writer.svarint(delta)
                case .value(let value): writer.value(value)
                }
            }
        }
        return writer.bytes
    }

    static func decodeBody(id: UInt64, from reader: inout WireReader, limits: SyncLimits) throws -> SyncBatch {
        let tables = try reader.tables("request.batch.tables")
        let base = try reader.varint("request.batch.base_ms")
        guard base <= UInt64(HLC.maximumMilliseconds) else {
            throw reader.malformed("request.batch.base_ms", "\(base) ms is past the greatest HLC")
        }
        let rowCount = try reader.count("request.batch.rows", limit: limits.batchRows)
        var rows: [SyncRowChange] = []
        rows.reserveCapacity(rowCount)
        var keys = Set<RowIdentity>()
        var previous = Int64(base)
        for r in 0..<rowCount {
            let field = "request.batch.rows[\(r)]"
            let table = try reader.index("\(field).table", below: tables.count, of: "tables of the batch")
            let key = try reader.value("\(field).key")
            try Self.checkKey(key, field: "\(field).key", reader: reader)
            guard keys.insert(RowIdentity(table: table, key: key)).inserted else {
                throw reader.malformed("\(field).key", "a second row of table '\(tables[table].name)' with key \(key)")
            }
            let columnCount = tables[table].columns.count
            let cellCount = try reader.count("\(field).cells")
            guard cellCount > 0 else { throw reader.malformed("\(field).cells", "a row with no cells") }
            var cells: [SyncCellChange] = []
            cells.reserveCapacity(cellCount)
            var seen = Set<Int>()
            for c in 0..<cellCount {
                let cellField = "\(field).cells[\(c)]"
                let head = try reader.varint("\(cellField).column")
                let column = head >> 1
                let isIncrement = head & 1 == 1
                guard column <= UInt64(columnCount) else {
                    throw reader.malformed(
                        "\(cellField).column",
                        "column \(column) past the \(columnCount) columns of '\(tables[table].name)'")
                }
                guard seen.insert(Int(column)).inserted else {
                    throw reader.malformed("\(cellField).column", "column \(column) changed twice in one row")
                }
                if column == 0 && isIncrement {
                    throw reader.malformed("\(cellField).column", "the row cell cannot be an increment")
                }
                let step = try reader.svarint("\(cellField).ms")
                let (milliseconds, overflow) = previous.addingReportingOverflow(step)
                guard !overflow, milliseconds >= 0, milliseconds <= HLC.maximumMilliseconds else {
                    throw reader.malformed(
                        "\(cellField).ms", "the HLC's milliseconds fall outside 0…\(HLC.maximumMilliseconds)")
                }
                previous = milliseconds
                let logical = try reader.varint("\(cellField).logical")
                guard logical <= 0xFFFF else {
                    throw reader.malformed("\(cellField).logical", "\(logical) is more than 65535")
                }
                let change: SyncCellContent
                if column == 0 {
                    change = .row(exists: try Self.rowFlag(&reader, "\(cellField).payload"))
                } else if isIncrement {
                    change = .increment(try reader.svarint("\(cellField).payload"))
                } else {
                    change = .value(try reader.value("\(cellField).payload"))
                }
                let hlc = HLC(milliseconds: milliseconds, logical: UInt16(logical))
                cells.append(SyncCellChange(column: Int(column), hlc: hlc, change: change))
            }
            rows.append(SyncRowChange(table: table, key: key, cells: cells))
        }
        return SyncBatch(id: id, tables: tables, rows: rows)
    }

    /// A key is INTEGER, TEXT or BLOB (docs/Sync.md, "Declaring what syncs").
    static func checkKey(_ key: SyncValue, field: String, reader: WireReader) throws {
        switch key {
        case .null: throw reader.malformed(field, "NULL is not a key")
        case .real: throw reader.malformed(field, "a REAL is not a key (keys are INTEGER, TEXT or BLOB)")
        default: break
        }
    }

    /// The row cell's byte: 1 exists, 0 deleted.
    static func rowFlag(_ reader: inout WireReader, _ field: String) throws -> Bool {
        let flag = try reader.u8(field)
        guard flag <= 1 else { throw reader.malformed(field, "row cell \(flag), not 0 (deleted) or 1 (exists)") }
        return flag == 1
    }
}

/// A row's identity within one message: its table index and key.
struct RowIdentity: Hashable {
    var table: Int
    var key: SyncValue
}
