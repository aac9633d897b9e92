import LayeredDatabase
import SyncProtocol

/// The row of `shipyard_sync_state`: who the device is and how far it has synced.
struct SyncState: Equatable {
    /// Made on the first sync; nil before.
    var deviceID: SyncDeviceID?
    /// The greatest HLC the device has produced (frozen) or received.
    var hlcMax: Int64
    /// The estimate of the server's clock minus the device's, in milliseconds.
    var offsetMilliseconds: Int64
    /// The server `seq` the device has applied up to.
    var cursor: UInt64
    /// The id the next frozen batch takes.
    var nextBatch: UInt64
    /// The fingerprint of the synced columns the cursor was reached with ('' before any sync).
    var schema: String

    /// Reads the state row.
    ///
    /// - Throws: ``SyncClientError`` when the row is missing.
    static func read(_ connection: Connection) throws -> SyncState {
        guard
            let row = try connection.query(
                "SELECT device_id, hlc_max, offset_ms, cursor, next_batch, schema FROM main.shipyard_sync_state"
            ).first
        else {
            throw SyncClientError.database("shipyard_sync_state has no row (the capture is incomplete)")
        }
        var deviceID: SyncDeviceID?
        if case .blob(let bytes) = row[0] { deviceID = SyncDeviceID(bytes: [UInt8](bytes)) }
        return SyncState(
            deviceID: deviceID, hlcMax: row[1].integer ?? 0, offsetMilliseconds: row[2].integer ?? 0,
            cursor: UInt64(max(row[3].integer ?? 0, 0)), nextBatch: UInt64(max(row[4].integer ?? 1, 1)),
            schema: row[5].shellText)
    }
}
