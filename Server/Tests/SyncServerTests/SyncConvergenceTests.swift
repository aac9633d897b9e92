import DBGenKit
import Foundation
import LayeredDatabase
import SyncClient
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// Convergence as a property test against the real server (the `shipyard-sync-server` process)
/// and PostgreSQL: per schedule, five devices (user databases from a template dbgen built, synced
/// by SyncClient) make random offline inserts, updates, deletes and counter increments and sync
/// in random orders, some at once, through ``SyncFaultProxy`` (requests dropped, answers dropped
/// after the server applied them, requests duplicated, bodies cut mid-way), while the server is
/// now and then killed with SIGKILL mid-sync and restarted. At the end every device syncs until
/// nothing moves, and every device's `doc` must equal the server's cells and
/// ``ConvergenceModel`` (the rules computed from the log of writes in HLC order).
///
/// Each schedule has its own seed (printed on failure) and its own space. Environment:
/// `SHIPYARD_CONVERGENCE_SEED` (the first schedule's seed; schedule i uses seed + i),
/// `SHIPYARD_CONVERGENCE_SCHEDULES` (how many; default: as many as fit in
/// `SHIPYARD_CONVERGENCE_SECONDS`, 120 by default, at least 20), `SHIPYARD_CONVERGENCE_LANES`
/// (how many schedules run at once, each through its own proxy; 3). The faults' and the kill's
/// timing is not replayed exactly: a seed replays the writes, the sync order and the fault draws.
final class SyncConvergenceTests: XCTestCase {
    static let schemaScript = """
        CREATE TABLE doc (id TEXT PRIMARY KEY NOT NULL, title TEXT, body TEXT, status TEXT, note TEXT,
                          hits INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
        INSERT INTO shipyard_sync VALUES ('doc', NULL, 'last-edit-wins'), ('doc', 'hits', 'counter'),
                                         ('doc', 'status', 'keep-server'), ('doc', 'note', 'reject');
        """
    static let deviceCount = 5
    static let keptKeys = ["k0", "k1", "k2"]
    static let churnedKeys = ["c0", "c1", "c2"]

    var directory = ""
    var cluster: PostgresCluster?
    var server: SyncServerProcess?
    var serverArguments: [String] = []
    /// One proxy and fault sequence per lane: schedules run `lanes` at a time, each through its own.
    var lanes: [Lane] = []
    let restartLock = NSLock()
    var tokens: TestTokens?
    var template = ""
    let stats = Stats()

    override func setUp() async throws {
        try await super.setUp()
        directory = NSTemporaryDirectory() + "/sync-convergence-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let schema = directory + "/user.sql"
        try Self.schemaScript.write(toFile: schema, atomically: true, encoding: .utf8)
        template = directory + "/template.sqlite"
        var options = BuildOptions(schema: schema, output: template)
        options.cacheDirectory = nil
        options.force = true
        _ = try DatabaseBuilder.build(options)
        let cluster = try PostgresCluster.start()
        self.cluster = cluster
        let tokens = try await TestTokens()
        self.tokens = tokens
        serverArguments = [
            "--postgres", cluster.url(), "--schema", schema, "--jwks", try tokens.writeJWKS(),
        ]
        let server = try SyncServerProcess(
            executable: SyncDurabilityTests.executable("shipyard-sync-server"), arguments: serverArguments)
        self.server = server
        let count = ProcessInfo.processInfo.environment["SHIPYARD_CONVERGENCE_LANES"].flatMap { Int($0) } ?? 3
        for _ in 0..<max(count, 1) {
            let faults = SeededFaults(seed: 0)
            lanes.append(Lane(proxy: try SyncFaultProxy(upstreamPort: server.port) { faults.next() }, faults: faults))
        }
    }

    override func tearDown() async throws {
        lanes.forEach { $0.proxy.stop() }
        server?.kill9()
        try? cluster?.stop()
        try? FileManager.default.removeItem(atPath: directory)
        try await super.tearDown()
    }

    func testFiveDevicesConvergeToTheServerAndTheModelOfTheRules() async throws {
        let environment = ProcessInfo.processInfo.environment
        let firstSeed =
            environment["SHIPYARD_CONVERGENCE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1..<1 << 48)
        let fixedCount = environment["SHIPYARD_CONVERGENCE_SCHEDULES"].flatMap { Int($0) }
        let budget = environment["SHIPYARD_CONVERGENCE_SECONDS"].flatMap { Double($0) } ?? 120
        let started = Date()
        print("SyncConvergenceTests: first seed \(firstSeed) (SHIPYARD_CONVERGENCE_SEED to replay)")
        let next = Counter()
        let failed = Counter()
        await withTaskGroup(of: Void.self) { group in
            for lane in lanes {
                group.addTask {
                    while failed.value == 0 {
                        let index = next.take()
                        let more =
                            fixedCount.map { index < $0 } ?? (index < 20 || Date().timeIntervalSince(started) < budget)
                        guard more else { return }
                        let seed = firstSeed &+ UInt64(index)
                        do {
                            let writes = try await self.runSchedule(seed: seed, lane: lane)
                            self.stats.finished(writes: writes)
                        } catch {
                            _ = failed.take()
                            XCTFail(
                                "schedule \(index) failed: replay with SHIPYARD_CONVERGENCE_SEED=\(seed) "
                                    + "SHIPYARD_CONVERGENCE_SCHEDULES=1: \(error)")
                        }
                    }
                }
            }
        }
        let (schedules, operations, kills, syncErrors, rejections) = stats.snapshot
        var faultCounts: [String: Int] = [:]
        for lane in lanes {
            for (fault, count) in lane.proxy.faultCounts { faultCounts[fault.rawValue, default: 0] += count }
        }
        let seconds = Date().timeIntervalSince(started)
        // A fault only loses a request or its answer: the device sees a failed transfer (or a 503
        // while the database is unavailable), never a refusal or an answer it cannot use.
        let unexpected = syncErrors.filter { $0.key != "transport" && $0.key != "refused 503" }
        XCTAssertEqual(unexpected, [:], "syncs failed other than by a lost transfer: \(unexpected)")
        // A device edits `note` of a row it pulled in most schedules: the server refuses that.
        if schedules >= 20 { XCTAssertGreaterThan(rejections, 0, "no device recorded a rejected edit of note") }
        print(
            "SyncConvergenceTests: \(schedules) schedules (seeds from \(firstSeed), \(lanes.count) at a time), "
                + "\(operations) writes, \(kills) server kills, faults \(faultCounts.sorted { $0.key < $1.key }), "
                + "sync errors \(syncErrors.sorted { $0.key < $1.key }), \(rejections) rejected edits recorded, \(String(format: "%.1f", seconds)) s"
        )
    }

    /// One schedule in a space of its own; returns how many writes it made.
    func runSchedule(seed: UInt64, lane: Lane) async throws -> Int {
        var random = SplitMix(seed: seed)
        lane.faults.reseed(seed ^ 0x5eed)
        let proxy = lane.proxy
        let user = "conv-\(seed)-\(UUID().uuidString.prefix(6))"
        let token = try await XCTUnwrap(tokens).token(user: user)
        let devices = try (0..<Self.deviceCount).map {
            try ConvergenceDevice(
                index: $0, template: template, path: directory + "/\(user)-\($0).sqlite", serverURL: proxy.baseURL,
                token: token)
        }
        defer { devices.forEach { $0.remove() } }
        var model = ConvergenceModel()
        let steps = Int.random(in: 12...30, using: &random)
        var writes = 0
        for _ in 0..<steps {
            if Int.random(in: 0..<10, using: &random) < 7 {
                let device = devices[Int.random(in: 0..<devices.count, using: &random)]
                if let op = try randomWrite(on: device, &random) {
                    model.record(op)
                    writes += 1
                }
            } else {
                let count = Int.random(in: 1...3, using: &random)
                let chosen = Array(devices.shuffled(using: &random).prefix(count))
                let kill = Int.random(in: 0..<100, using: &random) < 4
                let killDelay = UInt64.random(in: 0..<40_000_000, using: &random)
                try await syncAtOnce(chosen, killAfter: kill ? killDelay : nil)
            }
        }
        try await syncUntilQuiet(devices, faults: lane.faults, order: &random)
        try check(devices, model: model, space: "user:\(user)")
        return writes
    }

    /// A random write on `device` that its current rows allow (nil: none did).
    func randomWrite(on device: ConvergenceDevice, _ random: inout SplitMix) throws -> ConvergenceModel.Op? {
        let churned = Bool.random(using: &random)
        let keys = churned ? Self.churnedKeys : Self.keptKeys
        let key = keys[Int.random(in: 0..<keys.count, using: &random)]
        guard try device.exists(key) else {
            return try device.insert(key, hits: Int64.random(in: 0...3, using: &random))
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            return try device.update(key, ConvergenceModel.valueColumns.randomElement(using: &random) ?? "title")
        case 4..<8: return try device.increment(key, by: Int64.random(in: -2...5, using: &random))
        default: return churned ? try device.delete(key) : try device.update(key, "title")
        }
    }

    /// Syncs `devices` at the same time (faults on); `killAfter` nanoseconds into it, the server
    /// is killed with SIGKILL and started again. A failed sync is expected here (the next sends
    /// again); what failed is counted.
    func syncAtOnce(_ devices: [ConvergenceDevice], killAfter: UInt64?) async throws {
        try await withThrowingTaskGroup(of: String?.self) { group in
            for device in devices {
                group.addTask {
                    do {
                        _ = try await device.sync.sync()
                        return nil
                    } catch {
                        return Self.errorKind(error)
                    }
                }
            }
            if let killAfter {
                try await Task.sleep(nanoseconds: killAfter)
                try restartServer()
            }
            for try await failure in group { if let failure { stats.failed(failure) } }
        }
    }

    /// The server killed with SIGKILL and started again (on a new port the proxy is pointed at).
    func restartServer() throws {
        try restartLock.withLock {
            server?.kill9()
            stats.killed()
            let restarted = try SyncServerProcess(
                executable: SyncDurabilityTests.executable("shipyard-sync-server"), arguments: serverArguments)
            server = restarted
            lanes.forEach { $0.proxy.setUpstream(port: restarted.port) }
        }
    }

    /// Faults off; each device syncs in a random order, again and again, until a whole pass sends
    /// and receives nothing. A sync that fails (another lane killed the server) is tried again.
    func syncUntilQuiet(_ devices: [ConvergenceDevice], faults: SeededFaults, order random: inout SplitMix)
        async throws
    {
        faults.enabled = false
        defer { faults.enabled = true }
        for _ in 0..<8 {
            var moved = false
            for device in devices.shuffled(using: &random) {
                var attempt = 0
                while true {
                    do {
                        let report = try await device.sync.sync()
                        if report.sent > 0 || report.received > 0 { moved = true }
                        break
                    } catch SyncClientError.transport(let reason) {
                        attempt += 1
                        guard attempt < 50 else { throw SyncClientError.transport(reason) }
                        try await Task.sleep(nanoseconds: 100_000_000)
                    }
                }
            }
            if !moved { return }
        }
        throw TestSupportError("the devices still send or receive after 8 passes with no faults")
    }

    /// Every device equals the server's cells of `space` and the model.
    func check(_ devices: [ConvergenceDevice], model: ConvergenceModel, space: String) throws {
        let server = try serverRows(space)
        for device in devices {
            let rows = try device.rows()
            guard rows == server else {
                throw TestSupportError(
                    "device \(device.index) differs from the server:\n device \(rows.sorted { $0.key < $1.key })\n server \(server.sorted { $0.key < $1.key })\n\(Self.describe(model))"
                )
            }
        }
        // Only the `reject` column's refusals are conflicts, besides edits of deleted rows (doc's
        // own rule is last-edit-wins, so a refused delete is none); keep-server records nothing.
        for device in devices {
            let conflicts = try device.conflicts()
            for conflict in conflicts where conflict != "rejected note" && !conflict.hasPrefix("edit-of-deleted-row ") {
                throw TestSupportError("device \(device.index) recorded the conflict \(conflict)")
            }
            stats.rejected(conflicts.filter { $0 == "rejected note" }.count)
        }
        for key in Self.keptKeys + Self.churnedKeys {
            let expected = model.expected(key, churned: Self.churnedKeys.contains(key))
            let row = server[key]
            var fits = expected.exists == (row != nil)
            if let row, expected.exists {
                for (column, allowed) in expected.allowed where !allowed.contains(row[column] ?? "") { fits = false }
                if let hits = expected.hits, row["hits"] != "i:\(hits)" { fits = false }
            }
            guard fits else {
                throw TestSupportError(
                    "doc \(key): the server and every device hold \(row.map { "\($0.sorted { $0.key < $1.key })" } ?? "no row"), the model expects \(expected)\nthe server's cells of it (column, hlc/device, seq):\n\(try serverStamps(space, key))\n\(Self.describe(model))"
                )
            }
        }
    }

    /// The space's rows of `doc` as the server holds them (deleted rows left out).
    func serverRows(_ space: String) throws -> [String: [String: String]] {
        let cluster = try XCTUnwrap(cluster)
        var cells: [String: [String: String]] = [:]
        for line in try cluster.psql(
            "SELECT encode(pk, 'hex'), col, encode(value, 'hex') FROM shipyard_cells WHERE space = '\(space)' AND tbl = 'doc'"
        ).split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard case .text(let key) = try SyncValue(wireEncoding: ServerTestCase.bytes(hex: parts[0])) else {
                throw TestSupportError("a key that is not text on the server: \(line)")
            }
            let value = try SyncValue(wireEncoding: ServerTestCase.bytes(hex: parts[2]))
            cells[key, default: [:]][parts[1].isEmpty ? "" : parts[1]] = ConvergenceDevice.canonical(value)
        }
        var rows: [String: [String: String]] = [:]
        for (key, var columns) in cells where columns[""] == "i:1" {
            columns[""] = nil
            for column in ConvergenceModel.valueColumns where columns[column] == nil { columns[column] = "null" }
            if columns["hits"] == nil { columns["hits"] = "i:0" }
            rows[key] = columns
        }
        return rows
    }

    /// The server's cells of `doc` `key` with the edit that set each, one per line, for a failure's report.
    func serverStamps(_ space: String, _ key: String) throws -> String {
        let pk = SyncValue.text(key).wireEncoding.map { String(format: "%02x", $0) }.joined()
        return try XCTUnwrap(cluster).psql(
            "SELECT '  ' || col || ' ' || hlc || '/' || get_byte(device, 0) || ' seq ' || seq FROM shipyard_cells "
                + "WHERE space = '\(space)' AND tbl = 'doc' AND encode(pk, 'hex') = '\(pk)' ORDER BY col")
    }

    static func describe(_ model: ConvergenceModel) -> String {
        "writes in the order made:\n" + model.log.map { "  \($0)" }.joined(separator: "\n")
    }

    static func errorKind(_ error: any Error) -> String {
        if let error = error as? SyncClientError {
            switch error {
            case .transport: return "transport"
            case .refused(let status, _): return "refused \(status)"
            case .invalidAnswer: return "invalid answer"
            default: return "\(error)"
            }
        }
        return "\(type(of: error))"
    }
}
