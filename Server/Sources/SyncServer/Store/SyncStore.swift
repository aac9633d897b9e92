import Crypto
import Logging
import NIOCore
import PostgresNIO
import SyncProtocol

/// The server's store: one transaction per request (docs/Sync.md, "One request, one
/// transaction"): the device's row locked, a replayed batch answered again, a new one decided by
/// the rules and written in one statement under the space's row lock, then the pull.
struct SyncStore: Sendable {
    /// The pool of connections to the database.
    let client: PostgresClient
    /// Where queries log.
    let logger: Logger

    /// What applying a batch left for the pull of the same request.
    struct Applied {
        /// The space's `seq` after the batch: every cell up to it is committed or this request's.
        var bound: Int64
        /// The `seq` of the cells written exactly as the device sent them (left out of the pull).
        var ownSeqs: Set<Int64>
        /// Rows whose delete was refused: the device gets them back whole.
        var restoredRows: [RowKey]
        /// Rows this batch deleted as sent: the device deleted them, so the pull sends nothing of
        /// them (its row cell is the device's own, and a column cell alone would make the device
        /// insert a partial row).
        var deletedRows: Set<RowKey> = []
        /// The greatest HLC among the results' server values.
        var resultHLC: HLC
    }

    /// Answers `request` for `space`: applies `batch` (checked against `schema`), then pulls up to
    /// `pullLimit` cells; `clock` is the server's clock in the answer.
    func sync(
        space: String, request: SyncRequest, batch: CheckedBatch?, schema: SyncSchema, pullLimit: Int, clock: Int64
    ) async throws -> SyncAnswer {
        try await Self.unwrapping {
            try await transaction(
                space: space, request: request, batch: batch, schema: schema, pullLimit: pullLimit, clock: clock)
        }
    }

    /// Answers a pull-only `request` (no batch) from a streaming replica, in one read-only
    /// transaction, when the replica has replayed the space up to the device's cursor at least;
    /// nil when it has not (the primary answers). The pull is the primary's, as of a moment the
    /// replica has reached: writers of a space commit in `seq` order under its row lock, and a
    /// replica replays commits in order, so no `seq` at or below the replica's bound is missing.
    func pullFromReplica(space: String, request: SyncRequest, schema: SyncSchema, pullLimit: Int, clock: Int64)
        async throws -> SyncAnswer?
    {
        try await Self.unwrapping {
            try await client.withTransaction(logger: logger) { connection -> SyncAnswer? in
                var replayed: Int64 = 0
                for try await seq in try await connection.query(
                    "SELECT seq FROM shipyard_spaces WHERE space = \(space)", logger: logger
                ).decode(Int64.self) {
                    replayed = seq
                }
                guard replayed >= Int64(clamping: request.cursor) else { return nil }
                var answer = SyncAnswer(clock: UInt64(clock))
                try await PullReader(space: space, schema: schema, logger: logger).pull(
                    after: Int64(clamping: request.cursor), limit: pullLimit, applied: nil, into: &answer, connection)
                return answer
            }
        }
    }

    /// Runs `body`, rethrowing a refusal from inside a transaction as itself (PostgresNIO wraps
    /// what a transaction's closure throws in a `PostgresTransactionError`, after rolling back).
    static func unwrapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresTransactionError {
            if let refusal = error.closureError as? SyncServerError { throw refusal }
            throw error
        }
    }

    private func transaction(
        space: String, request: SyncRequest, batch: CheckedBatch?, schema: SyncSchema, pullLimit: Int, clock: Int64
    ) async throws -> SyncAnswer {
        try await client.withTransaction(logger: logger) { connection in
            var answer = SyncAnswer(clock: UInt64(clock))
            var applied: Applied? = nil
            if let batch {
                answer.batch = batch.batch.id
                let device = ByteBuffer(bytes: request.device.bytes)
                let hash = ByteBuffer(bytes: Array(SHA256.hash(data: batch.batch.encodedBody())))
                var last: (Int64, ByteBuffer, ByteBuffer) = (0, ByteBuffer(), ByteBuffer())
                let rows = try await connection.query(
                    """
                    INSERT INTO shipyard_devices (space, device, last_batch, batch_hash, results, seen)
                    VALUES (\(space), \(device), 0, \(ByteBuffer()), \(ByteBuffer()), now())
                    ON CONFLICT (space, device) DO UPDATE SET seen = now()
                    RETURNING last_batch, batch_hash, results
                    """, logger: logger)
                for try await row in rows.decode((Int64, ByteBuffer, ByteBuffer).self) { last = row }
                let id = Int64(batch.batch.id)
                if id == last.0 {
                    guard last.1 == hash else {
                        throw SyncServerError.conflict(
                            "request.batch: batch \(id) of device \(request.device) was applied with other content: "
                                + "the device id is used by two devices; make a new device id")
                    }
                    answer.status = .replayed
                    answer.results = try SyncAnswer(decoding: last.2.bytes).results
                } else if id < last.0 {
                    answer.status = .replayed
                } else {
                    answer.status = .applied
                    let (results, done) = try await apply(batch, space: space, device: request.device, connection)
                    answer.results = results
                    applied = done
                    let stored = ByteBuffer(
                        bytes: SyncAnswer(clock: 0, batch: batch.batch.id, status: .applied, results: results)
                            .encoded(compression: .whenSmaller))
                    try await connection.query(
                        """
                        UPDATE shipyard_devices SET last_batch = \(id), batch_hash = \(hash), results = \(stored)
                        WHERE space = \(space) AND device = \(device)
                        """, logger: logger)
                }
            }
            try await PullReader(space: space, schema: schema, logger: logger).pull(
                after: Int64(clamping: request.cursor), limit: pullLimit, applied: applied, into: &answer, connection)
            return answer
        }
    }

    /// Takes the batch's `seq` numbers, reads the stored cells of its rows, decides every change
    /// and writes the changed cells: three statements, whatever the batch's size.
    private func apply(_ batch: CheckedBatch, space: String, device: SyncDeviceID, _ connection: PostgresConnection)
        async throws -> ([SyncResult], Applied)
    {
        let cellCount = Int64(batch.cellCount)
        var end: Int64 = 0
        let taken = try await connection.query(
            """
            INSERT INTO shipyard_spaces AS s (space, seq) VALUES (\(space), \(cellCount))
            ON CONFLICT (space) DO UPDATE SET seq = s.seq + EXCLUDED.seq RETURNING seq
            """, logger: logger)
        for try await seq in taken.decode(Int64.self) { end = seq }
        let keys = batch.rows.map { RowKey(table: batch.tables[$0.table].name, key: $0.key.wireEncoding) }
        let stored = try await readCells(of: keys, space: space, connection)

        var results: [SyncResult] = []
        var applied = Applied(bound: end, ownSeqs: [], restoredRows: [], resultHLC: .zero)
        var tables: [String] = [], pks: [ByteBuffer] = [], columns: [String] = [], values: [ByteBuffer] = []
        var hlcs: [Int64] = [], devices: [ByteBuffer] = [], seqs: [Int64] = []
        var seq = end - cellCount
        for (index, row) in batch.rows.enumerated() {
            let decision = RowDecision.decide(
                row, rowIndex: index, table: batch.tables[row.table], columns: batch.columns[row.table], device: device,
                stored: stored[keys[index]] ?? [:])
            results += decision.results
            applied.resultHLC = max(applied.resultHLC, decision.resultHLC)
            if decision.refusedDelete { applied.restoredRows.append(keys[index]) }
            for write in decision.writes {
                seq += 1
                tables.append(keys[index].table)
                pks.append(ByteBuffer(bytes: keys[index].key))
                columns.append(write.column)
                values.append(ByteBuffer(bytes: write.value.wireEncoding))
                hlcs.append(write.stamp.hlc.rawValue)
                devices.append(ByteBuffer(bytes: write.stamp.device.bytes))
                seqs.append(seq)
                if write.asSent { applied.ownSeqs.insert(seq) }
                if write.asSent, write.column.isEmpty, write.value == .integer(0) {
                    applied.deletedRows.insert(keys[index])
                }
            }
        }
        if !seqs.isEmpty {
            try await connection.query(
                """
                INSERT INTO shipyard_cells (space, tbl, pk, col, value, hlc, device, seq)
                SELECT \(space), * FROM unnest(\(tables)::text[], \(pks)::bytea[], \(columns)::text[], \(values)::bytea[],
                                              \(hlcs)::int8[], \(devices)::bytea[], \(seqs)::int8[])
                ON CONFLICT (space, tbl, pk, col) DO UPDATE
                SET value = EXCLUDED.value, hlc = EXCLUDED.hlc, device = EXCLUDED.device, seq = EXCLUDED.seq
                """, logger: logger)
        }
        return (results, applied)
    }

    /// The stored cells of `keys` in one statement, by row and column.
    private func readCells(of keys: [RowKey], space: String, _ connection: PostgresConnection) async throws
        -> [RowKey: [String: StoredCell]]
    {
        guard !keys.isEmpty else { return [:] }
        let tables = keys.map(\.table)
        let pks = keys.map { ByteBuffer(bytes: $0.key) }
        let rows = try await connection.query(
            """
            SELECT c.tbl, c.pk, c.col, c.value, c.hlc, c.device
            FROM unnest(\(tables)::text[], \(pks)::bytea[]) AS k(tbl, pk)
            JOIN shipyard_cells c ON c.space = \(space) AND c.tbl = k.tbl AND c.pk = k.pk
            """, logger: logger)
        var cells: [RowKey: [String: StoredCell]] = [:]
        for try await (table, pk, column, value, hlc, device) in rows.decode(
            (String, ByteBuffer, String, ByteBuffer, Int64, ByteBuffer).self)
        {
            guard let deviceID = SyncDeviceID(bytes: device.bytes) else {
                throw SyncServerError(
                    status: 500, "a stored cell of table '\(table)' has a device id of \(device.readableBytes) bytes")
            }
            let stored = StoredCell(
                value: try .stored(value, "value of \(table).\(column)"),
                stamp: SyncEditStamp(hlc: HLC(rawValue: hlc), device: deviceID))
            cells[RowKey(table: table, key: pk.bytes), default: [:]][column] = stored
        }
        return cells
    }
}
