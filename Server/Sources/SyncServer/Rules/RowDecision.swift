import SyncProtocol

/// What the server does with one row of a batch, decided by docs/Sync.md's rules table from the
/// row's stored cells alone: the cells to write and the changes not taken as sent.
struct RowDecision: Sendable {
    /// The cells to write.
    var writes: [CellWrite] = []
    /// The changes not taken as sent (``SyncResult/row`` is the row's index in the batch).
    var results: [SyncResult] = []
    /// The greatest HLC among the server values the results carry.
    var resultHLC: HLC = .zero
    /// Whether a delete was refused: the device gets the whole row back in the pull.
    var refusedDelete = false

    /// Decides `row` (index `rowIndex` of the batch) of `table`, whose cell column `i + 1` is
    /// `columns[i]`, sent by `device`, given the row's `stored` cells by column name (`""`: the
    /// row cell). The HLCs are already clamped to the server's clock; counters carry increments
    /// and other columns values (the request was checked).
    static func decide(
        _ row: SyncRowChange, rowIndex: Int, table: SyncSchema.Table, columns: [SyncSchema.Column],
        device: SyncDeviceID, stored: [String: StoredCell]
    ) -> RowDecision {
        var decision = RowDecision()
        func report(_ column: Int, _ outcome: SyncOutcome, _ cell: StoredCell?) {
            decision.results.append(
                SyncResult(row: rowIndex, column: column, outcome: outcome, server: cell?.value ?? .null))
            if let cell, cell.stamp.hlc > decision.resultHLC { decision.resultHLC = cell.stamp.hlc }
        }
        let storedRow = stored[""]
        // nil: the server has never seen the row.
        var exists: Bool? = storedRow.map { $0.value != .integer(0) }
        for cell in row.cells where cell.column == 0 {
            guard case .row(let inserted) = cell.change else { continue }
            let stamp = SyncEditStamp(hlc: cell.hlc, device: device)
            let write = CellWrite(column: "", value: .integer(inserted ? 1 : 0), stamp: stamp, asSent: true)
            switch (inserted, exists, storedRow) {
            case (true, nil, _), (false, nil, _):
                decision.writes.append(write)
                exists = inserted
            case (true, true?, let current?):
                // Inserted on two devices (or again): the later insert's stamp is the row's.
                if stamp > current.stamp { decision.writes.append(write) }
            case (true, false?, let current?):
                if stamp > current.stamp {
                    decision.writes.append(write) // revived: inserted again after the delete
                    exists = true
                } else {
                    report(0, .editOfDeletedRow, current)
                }
            case (false, true?, let current?):
                let refused = table.rule == .keepServer || table.rule == .reject || current.stamp > stamp
                if refused {
                    report(0, .deleteRefused, current)
                    decision.refusedDelete = true
                } else {
                    decision.writes.append(write)
                    exists = false
                }
            case (false, false?, let current?):
                // Deleted again: it stays deleted, but a later delete's stamp becomes the row's, so
                // an insert stamped between the two deletes that arrives after them loses to it.
                if stamp > current.stamp { decision.writes.append(write) }
            default:
                break
            }
        }
        for cell in row.cells where cell.column > 0 {
            let column = columns[cell.column - 1]
            let stamp = SyncEditStamp(hlc: cell.hlc, device: device)
            let current = stored[column.name]
            if exists == false {
                report(cell.column, .editOfDeletedRow, current)
                continue
            }
            switch cell.change {
            case .increment(let delta):
                let sum = (current?.value.integerValue ?? 0) &+ delta
                let newest = max(stamp, current?.stamp ?? stamp)
                decision.writes.append(
                    CellWrite(column: column.name, value: .integer(sum), stamp: newest, asSent: false))
            case .value(let value):
                guard let current else {
                    decision.writes.append(CellWrite(column: column.name, value: value, stamp: stamp, asSent: true))
                    continue
                }
                switch column.rule {
                case .keepServer: report(cell.column, .keptServer, current)
                case .reject: report(cell.column, .rejected, current)
                default:
                    if stamp >= current.stamp {
                        decision.writes.append(CellWrite(column: column.name, value: value, stamp: stamp, asSent: true))
                    } else {
                        report(cell.column, .superseded, current)
                    }
                }
            case .row:
                break // never on a column (the decoder refuses it)
            }
        }
        return decision
    }
}
