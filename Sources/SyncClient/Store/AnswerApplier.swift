import LayeredDatabase
import SyncProtocol

/// Applies one answer of the server in one transaction with `applying` = 1 (so the capture skips
/// the sync's own writes; other connections never see it set, and keep reading the database,
/// in WAL mode, meanwhile): the acknowledged batch leaves `shipyard_sync_inflight`, each result
/// (a change the server did not take as sent) sets the server's value unless the outbox holds a
/// newer edit of the cell, each pulled row is written unless the outbox holds newer edits, and
/// the state (`cursor`, `hlc_max`, `offset_ms`, the schema fingerprint) is stored. A crash
/// leaves the state before the transaction or after it.
struct AnswerApplier {
    let connection: Connection
    let schema: SyncSchema
    let rows: LocalRows

    /// What one answer did.
    struct Outcome: Equatable {
        /// Cells of the acknowledged batch.
        var acknowledged = 0
        /// Rows pulled and applied.
        var received = 0
    }

    /// What the state row becomes.
    struct StateUpdate {
        var offsetMilliseconds: Int64
        /// Whether the answer ends the pull (`more` false): orphans are checked then.
        var repairOrphans: Bool
    }

    func apply(_ answer: SyncAnswer, sent frozen: FrozenBatch?, state update: StateUpdate) throws -> Outcome {
        try connection.inTransaction {
            try connection.execute("UPDATE main.shipyard_sync_state SET applying = 1")
            var outcome = Outcome()
            if let frozen {
                guard answer.batch == frozen.id, answer.status != .none else {
                    throw SyncClientError.invalidAnswer(
                        "the request sent batch \(frozen.id), the answer acknowledges batch \(answer.batch) "
                            + "(status \(answer.status))")
                }
                let batch = frozen.batch
                for result in answer.results { try apply(result, of: frozen, batch: batch) }
                try connection.execute("DELETE FROM main.shipyard_sync_inflight")
                outcome.acknowledged = frozen.rows.reduce(0) { $0 + $1.cells.count }
            } else if answer.batch != 0 {
                throw SyncClientError.invalidAnswer(
                    "the request sent no batch, the answer acknowledges batch \(answer.batch)")
            }
            for row in answer.rows {
                try apply(row, tables: answer.tables)
                outcome.received += 1
            }
            if update.repairOrphans { try OrphanRepair(schema: schema, rows: rows).run(touched: rows.touched) }
            try connection.execute(
                """
                UPDATE main.shipyard_sync_state SET cursor = ?, hlc_max = max(hlc_max, ?), offset_ms = ?,
                    schema = ?, applying = 0
                """,
                [
                    .integer(Int64(clamping: answer.cursor)), .integer(answer.hlc.rawValue),
                    .integer(update.offsetMilliseconds), .text(schema.fingerprint),
                ])
            return outcome
        }
    }

    // MARK: Results of the batch

    private func apply(_ result: SyncResult, of frozen: FrozenBatch, batch: SyncBatch) throws {
        guard let (row, cell) = frozen.cell(row: result.row, column: result.column, in: batch) else {
            throw SyncClientError.invalidAnswer(
                "a result names row \(result.row), column \(result.column), which the batch does not have")
        }
        guard let table = schema.table(named: row.table) else { return } // no longer synced here
        let sent: DatabaseValue = cell.op == 3 ? .integer(cell.delta) : (cell.op <= 1 ? .integer(cell.op) : cell.value)
        let column = cell.column.isEmpty ? nil : cell.column
        let server = result.server.databaseValue
        switch result.outcome {
        case .superseded, .keptServer, .rejected:
            if let column {
                try setServerValue(table, key: row.key, column: column, server)
            } else {
                try setServerRowCell(table, key: row.key, exists: result.server != .integer(0))
            }
            if result.outcome == .rejected {
                try rows.conflicts.record(
                    .rejected, table: table.name, key: row.key, column: column, device: sent, server: server)
            }
        case .editOfDeletedRow:
            try rows.conflicts.record(
                .editOfDeletedRow, table: table.name, key: row.key, column: column, device: sent, server: server)
            try setServerRowCell(table, key: row.key, exists: false)
        case .deleteRefused:
            // The row comes back with the pull; a `reject` table reports it.
            if table.rule == .reject {
                try rows.conflicts.record(
                    .deleteRefused, table: table.name, key: row.key, column: nil, device: sent, server: server)
            }
        }
    }

    /// The server's value of a cell, unless the outbox holds a newer edit of it (or of its row).
    private func setServerValue(_ table: SyncSchema.Table, key: DatabaseValue, column: String, _ value: DatabaseValue)
        throws
    {
        let pending = try PendingEdits.of(table.name, key: key, in: rows.statements)
        guard pending.rowOp == nil, pending.entry(column) == nil,
            let synced = table.column(named: column), synced.rule != .counter
        else { return }
        try rows.write(table, key: key, assignmentsIfExists: [(synced.name, value)])
    }

    /// The server says the row exists or is deleted. A deleted row goes (unless inserted again
    /// locally since), with its pending column edits, each reported as dropped; a row that exists
    /// on the server but not here arrives with the pull.
    private func setServerRowCell(_ table: SyncSchema.Table, key: DatabaseValue, exists: Bool) throws {
        guard !exists else { return }
        let pending = try PendingEdits.of(table.name, key: key, in: rows.statements)
        guard pending.rowOp != 1 else { return }
        try deleteWithPendingEdits(table, key: key, pending: pending)
    }

    /// Deletes the row as the server says; its pending column edits are dropped and reported.
    private func deleteWithPendingEdits(_ table: SyncSchema.Table, key: DatabaseValue, pending: PendingEdits) throws {
        let columns = pending.columnNames.compactMap { table.column(named: $0)?.name }
        if !columns.isEmpty, let values = try rows.values(table, key: key, columns: columns) {
            for (column, value) in zip(columns, values) {
                try rows.conflicts.record(
                    .editOfDeletedRow, table: table.name, key: key, column: column, device: value, server: .null)
            }
        }
        try PendingEdits.dropColumnEntries(table.name, key: key, in: rows.statements)
        if try rows.exists(table, key: key) { try rows.delete(table, key: key) }
    }

    // MARK: Pulled rows

    private func apply(_ row: SyncPulledRow, tables: [SyncTableColumns]) throws {
        guard tables.indices.contains(row.table) else {
            throw SyncClientError.invalidAnswer("a pulled row names table \(row.table) of \(tables.count)")
        }
        let wire = tables[row.table]
        guard let table = schema.table(named: wire.name) else { return } // a table this device does not sync
        var exists: Bool?
        var values: [(SyncSchema.Column, SyncValue)] = []
        for cell in row.cells {
            if cell.column == 0 {
                guard case .row(let flag) = cell.content else {
                    throw SyncClientError.invalidAnswer("the row cell of a pulled row of \(wire.name) is not 0 or 1")
                }
                exists = flag
                continue
            }
            guard wire.columns.indices.contains(cell.column - 1) else {
                throw SyncClientError.invalidAnswer("a pulled row of \(wire.name) names column \(cell.column)")
            }
            // A column this device does not know (a newer app's) is ignored.
            guard let column = table.column(named: wire.columns[cell.column - 1]) else { continue }
            guard case .value(let value) = cell.content else {
                throw SyncClientError.invalidAnswer("a pulled cell of \(wire.name).\(column.name) is not a value")
            }
            values.append((column, value))
        }
        let key = row.key.databaseValue
        let pending = try PendingEdits.of(table.name, key: key, in: rows.statements)
        // Inserted or deleted here since: the server decides when that edit arrives.
        if pending.rowOp != nil { return }
        if exists == false {
            try deleteWithPendingEdits(table, key: key, pending: pending)
            return
        }
        var assignments: [(String, DatabaseValue)] = []
        for (column, value) in values {
            if column.rule == .counter, let entry = pending.entry(column.name) {
                // The server's sum plus this device's unsent increments.
                assignments.append((column.name, .integer((value.integerValue ?? 0) &+ entry.delta)))
            } else if pending.entry(column.name) == nil {
                assignments.append((column.name, value.databaseValue))
            }
        }
        if exists == true {
            try rows.write(table, key: key, assignments: assignments)
        } else {
            // Column cells alone: a row new here arrives whole, with its row cell, so cells of a
            // row this device does not have edit a row deleted here, never made a partial row.
            try rows.write(table, key: key, assignmentsIfExists: assignments)
        }
    }
}

extension LocalRows {
    /// Sets `assignments` on the row when it exists; nothing when it does not.
    func write(_ table: SyncSchema.Table, key: DatabaseValue, assignmentsIfExists: [(String, DatabaseValue)]) throws {
        guard try exists(table, key: key) else { return }
        try write(table, key: key, assignments: assignmentsIfExists)
    }
}
