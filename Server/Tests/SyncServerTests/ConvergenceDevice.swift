import DBGenKit
import Foundation
import LayeredDatabase
import SyncClient
import SyncProtocol
import SyncServerTestSupport

/// One device of the convergence test: a user database copied from the template dbgen built
/// (so it carries the capture), written through its own SQLite connection as an app would, and
/// synced by `UserDatabaseSync` (SyncClient, the library an app links) through the fault proxy.
final class ConvergenceDevice {
    let index: Int
    let path: String
    let deviceID: [UInt8]
    let sync: UserDatabaseSync
    private var counter = 0

    /// A device made from `template` at `path`, with the device id `index + 1, 0, 0, …` (set
    /// before its first sync, so the model knows how ties of HLC are broken).
    init(index: Int, template: String, path: String, serverURL: String, token: String) throws {
        self.index = index
        self.path = path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: template, toPath: path)
        deviceID = [UInt8(index + 1)] + [UInt8](repeating: 0, count: 15)
        let connection = try Connection(path: path)
        defer { connection.close() }
        try connection.execute("UPDATE shipyard_sync_state SET device_id = ?", [.blob(Data(deviceID))])
        var configuration = SyncConfiguration()
        configuration.idleTimeout = 10
        configuration.requestDeadline = 20
        // Small batches, so one sync takes several requests and a fault can fall between them.
        configuration.batchRows = 3
        configuration.pullLimit = 8
        // A loopback URL the test built from 127.0.0.1 and a port: always a URL.
        // swift-format-ignore: NeverForceUnwrap
        sync = UserDatabaseSync(
            databasePath: path, serverURL: URL(string: serverURL)!,
            configuration: configuration, token: { token })
    }

    /// A value no write has made before (so every update changes the cell and is captured).
    func freshValue(_ column: String) -> String {
        counter += 1
        return "\(column)-d\(index)-\(counter)"
    }

    private func stamp(_ connection: Connection, _ key: String, _ column: String) throws -> ConvergenceModel.Stamp {
        let hlc = try connection.scalar(
            "SELECT hlc FROM shipyard_sync_outbox WHERE tbl = 'doc' AND pk = ? AND col = ?",
            [.text(key), .text(column)])
        guard case .integer(let value) = hlc else {
            throw TestSupportError("device \(index): no outbox entry for doc \(key) \(column) after a write")
        }
        return ConvergenceModel.Stamp(hlc: value, device: deviceID)
    }

    func exists(_ key: String) throws -> Bool {
        let connection = try Connection(path: path)
        defer { connection.close() }
        return try connection.scalar("SELECT count(*) FROM doc WHERE id = ?", [.text(key)]) == .integer(1)
    }

    /// Inserts `key` (absent here) with fresh values; the op as the model logs it.
    func insert(_ key: String, hits: Int64) throws -> ConvergenceModel.Op {
        let connection = try Connection(path: path)
        defer { connection.close() }
        let title = freshValue("title"), body = freshValue("body"), status = freshValue("status")
        let note = freshValue("note")
        try connection.execute(
            "INSERT INTO doc (id, title, body, status, note, hits) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(key), .text(title), .text(body), .text(status), .text(note), .integer(hits)])
        let values = ["title": "t:" + title, "body": "t:" + body, "status": "t:" + status, "note": "t:" + note]
        return .insert(key: key, stamp: try stamp(connection, key, ""), values: values, hits: hits)
    }

    /// Sets `column` of `key` (present here) to a fresh value.
    func update(_ key: String, _ column: String) throws -> ConvergenceModel.Op {
        let connection = try Connection(path: path)
        defer { connection.close() }
        let value = freshValue(column)
        try connection.execute("UPDATE doc SET \(column) = ? WHERE id = ?", [.text(value), .text(key)])
        return .update(key: key, stamp: try stamp(connection, key, column), column: column, value: "t:" + value)
    }

    /// Deletes `key` (present here).
    func delete(_ key: String) throws -> ConvergenceModel.Op {
        let connection = try Connection(path: path)
        defer { connection.close() }
        try connection.execute("DELETE FROM doc WHERE id = ?", [.text(key)])
        return .delete(key: key, stamp: try stamp(connection, key, ""))
    }

    /// Adds `delta` to the counter of `key` (present here), as an app does: with UPDATE.
    func increment(_ key: String, by delta: Int64) throws -> ConvergenceModel.Op {
        let connection = try Connection(path: path)
        defer { connection.close() }
        try connection.execute("UPDATE doc SET hits = hits + ? WHERE id = ?", [.integer(delta), .text(key)])
        return .increment(key: key, delta: delta)
    }

    /// Every row of `doc`: key → column → canonical value (`t:TEXT`, `i:INT`, `null`).
    func rows() throws -> [String: [String: String]] {
        let connection = try Connection(path: path, readOnly: true)
        defer { connection.close() }
        var out: [String: [String: String]] = [:]
        for row in try connection.query("SELECT id, title, body, status, note, hits FROM doc") {
            guard case .text(let key) = row[0] else {
                throw TestSupportError("device \(index): a key that is not text")
            }
            var columns: [String: String] = [:]
            for (index, name) in ["title", "body", "status", "note", "hits"].enumerated() {
                columns[name] = Self.canonical(row[index + 1])
            }
            out[key] = columns
        }
        return out
    }

    /// The conflicts the sync recorded here, as `kind column` (column empty for the row).
    func conflicts() throws -> [String] {
        let connection = try Connection(path: path, readOnly: true)
        defer { connection.close() }
        return try connection.query("SELECT kind, coalesce(column_name, '') FROM shipyard_sync_conflicts").map {
            row in
            guard case .text(let kind) = row[0], case .text(let column) = row[1] else { return "?" }
            return "\(kind) \(column)"
        }
    }

    static func canonical(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let value): "i:\(value)"
        case .text(let value): "t:\(value)"
        case .real(let value): "r:\(value)"
        case .blob(let value): "b:\(value.map { String($0, radix: 16) }.joined())"
        }
    }

    static func canonical(_ value: SyncValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let value): "i:\(value)"
        case .text(let value): "t:\(value)"
        case .real(let value): "r:\(value)"
        case .blob(let value): "b:\(value.map { String($0, radix: 16) }.joined())"
        }
    }

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
