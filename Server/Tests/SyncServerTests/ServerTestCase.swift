import Foundation
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// A test class with its own PostgreSQL cluster (started once for the class, stopped after it)
/// and, per test, a sync server in this process over it, with the test schema and a signing key.
class ServerTestCase: XCTestCase {
    nonisolated(unsafe) static var cluster: PostgresCluster?
    nonisolated(unsafe) static var clusterError: (any Error)?
    var server: InProcessSyncServer?
    var tokens: TestTokens?
    var schema = SyncSchema(tables: [])

    /// The test schema: every rule, as a dbgen schema script.
    static let schemaScript = """
        CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', owner TEXT, locked TEXT);
        CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL, list_id TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                           name TEXT NOT NULL DEFAULT '', done INTEGER NOT NULL DEFAULT 0, quantity INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE note (id BLOB PRIMARY KEY NOT NULL, body TEXT);
        CREATE TABLE stamp (id INTEGER PRIMARY KEY, label TEXT);
        CREATE TABLE local_only (id TEXT PRIMARY KEY, secret TEXT);
        CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
        INSERT INTO shipyard_sync VALUES ('list', NULL, 'last-edit-wins'), ('list', 'owner', 'keep-server'),
                                         ('list', 'locked', 'reject'),
                                         ('item', NULL, 'last-edit-wins'), ('item', 'quantity', 'counter'),
                                         ('note', NULL, 'keep-server'), ('stamp', NULL, 'reject'), ('stamp', 'id', 'unique-key');
        """

    static let list = SyncTableColumns(name: "list", columns: ["title", "owner", "locked"])
    static let item = SyncTableColumns(name: "item", columns: ["list_id", "name", "done", "quantity"])
    static let note = SyncTableColumns(name: "note", columns: ["body"])
    static let stampTable = SyncTableColumns(name: "stamp", columns: ["label"])

    override class func setUp() {
        super.setUp()
        do {
            cluster = try PostgresCluster.start()
        } catch {
            clusterError = error
        }
    }

    override class func tearDown() {
        try? cluster?.stop()
        cluster = nil
        super.tearDown()
    }

    /// The class's cluster, or the reason it did not start (the test fails).
    func requireCluster() throws -> PostgresCluster {
        if let error = Self.clusterError { throw error }
        return try XCTUnwrap(Self.cluster)
    }

    /// The test schema read from its script.
    static func readSchema() throws -> SyncSchema {
        let path = NSTemporaryDirectory() + "/sync-schema-\(UUID().uuidString).sql"
        try schemaScript.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try UserSchemaScript.read(scriptAt: path)
    }

    override func setUp() async throws {
        try await super.setUp()
        let cluster = try requireCluster()
        schema = try Self.readSchema()
        let tokens = try await TestTokens()
        self.tokens = tokens
        let verifier = try await makeVerifier(tokens)
        server = try await InProcessSyncServer(
            configuration: configure(SyncServerConfiguration(schema: schema, verifier: verifier)),
            postgresURLs: [cluster.url()])
    }

    /// The verifier of the test's tokens (a subclass may use other keys).
    func makeVerifier(_ tokens: TestTokens) async throws -> TokenVerifier {
        try await TokenVerifier(jwks: Data(tokens.jwks.utf8), source: "test JWKS")
    }

    /// A subclass's changes to the configuration.
    func configure(_ configuration: SyncServerConfiguration) -> SyncServerConfiguration { configuration }

    override func tearDown() async throws {
        await server?.stop()
        try await super.tearDown()
    }

    /// A new device of `user` (a fresh user per test keeps tests apart in one cluster).
    func device(_ user: String, space: String? = nil) async throws -> SimulatedDevice {
        let server = try XCTUnwrap(server)
        let token = try await XCTUnwrap(tokens).token(user: user, space: space)
        return SimulatedDevice(baseURL: server.baseURL, token: token)
    }

    /// A user name unique to this test.
    func user(_ name: String = "u") -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    /// Every row of the server's three tables, as text: what an attack must leave unchanged.
    func serverState() throws -> String {
        let cluster = try requireCluster()
        return try cluster.psql(
            """
            SELECT 'cell', space, tbl, encode(pk, 'hex'), col, encode(value, 'hex'), hlc, encode(device, 'hex'), seq
              FROM shipyard_cells
            UNION ALL SELECT 'space', space, '', '', '', '', seq, '', 0 FROM shipyard_spaces
            UNION ALL SELECT 'device', space, '', encode(device, 'hex'), '', encode(batch_hash, 'hex'), last_batch, '', 0
              FROM shipyard_devices
            ORDER BY 1, 2, 3, 4, 5
            """)
    }

    /// The cells of `space`: table, key, column → value.
    func cells(of space: String) throws -> [String: SyncValue] {
        let cluster = try requireCluster()
        var out: [String: SyncValue] = [:]
        for line in try cluster.psql(
            "SELECT tbl, encode(pk, 'hex'), col, encode(value, 'hex') FROM shipyard_cells WHERE space = '\(space)'"
        ).split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let key = try SyncValue(wireEncoding: Self.bytes(hex: parts[1]))
            out["\(parts[0]) \(key) \(parts[2])"] = try SyncValue(wireEncoding: Self.bytes(hex: parts[3]))
        }
        return out
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }
}

/// Building rows of a batch.
extension SyncRowChange {
    /// An insert of `key` with `values` (column index, value), every cell at `hlc`.
    static func insert(_ table: Int, _ key: SyncValue, _ values: [(Int, SyncValue)], at hlc: HLC) -> SyncRowChange {
        SyncRowChange(
            table: table, key: key,
            cells: [SyncCellChange(column: 0, hlc: hlc, change: .row(exists: true))]
                + values.map { SyncCellChange(column: $0.0, hlc: hlc, change: .value($0.1)) })
    }

    /// Edits of `key`'s columns (column index, value) at `hlc`.
    static func update(_ table: Int, _ key: SyncValue, _ values: [(Int, SyncValue)], at hlc: HLC) -> SyncRowChange {
        SyncRowChange(
            table: table, key: key, cells: values.map { SyncCellChange(column: $0.0, hlc: hlc, change: .value($0.1)) })
    }

    /// A delete of `key` at `hlc`.
    static func delete(_ table: Int, _ key: SyncValue, at hlc: HLC) -> SyncRowChange {
        SyncRowChange(table: table, key: key, cells: [SyncCellChange(column: 0, hlc: hlc, change: .row(exists: false))])
    }

    /// An increment of counter column `column` of `key` at `hlc`.
    static func increment(_ table: Int, _ key: SyncValue, column: Int, by delta: Int64, at hlc: HLC) -> SyncRowChange {
        SyncRowChange(
            table: table, key: key, cells: [SyncCellChange(column: column, hlc: hlc, change: .increment(delta))])
    }
}
