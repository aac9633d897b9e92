import Foundation
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// Past one process and one database, as far as one machine allows: two servers on one
/// database serve one space's devices side by side; with two clusters, spaces spread by a hash
/// of their name, each space wholly in the database the hash names; a streaming replica answers
/// the requests that only pull, once it has replayed the device's cursor.
final class SyncScalingTests: ServerTestCase {
    let tables = [ServerTestCase.list, ServerTestCase.item]

    func testTwoServersOnOneDatabaseServeOneSpace() async throws {
        let cluster = try requireCluster()
        let tokens = try XCTUnwrap(tokens)
        let verifier = try await TokenVerifier(jwks: Data(tokens.jwks.utf8), source: "test JWKS")
        let second = try await InProcessSyncServer(
            configuration: SyncServerConfiguration(schema: schema, verifier: verifier), postgresURLs: [cluster.url()])
        let user = user()
        let a = try await device(user)
        let b = try await device(user)
        b.baseURL = second.baseURL
        let counter = SyncValue.text("c")
        try await a.send(tables, [.insert(1, counter, [(1, .text("L"))], at: a.stamp())])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in [a, b] {
                group.addTask {
                    for round in 0..<10 {
                        try await device.send(
                            self.tables,
                            [.increment(1, counter, column: 4, by: 1, at: device.stamp())]
                                + (0..<10).map {
                                    .insert(
                                        0, .text("\(device.id)-\(round)-\($0)"), [(1, .text("x"))], at: device.stamp())
                                })
                    }
                }
            }
            try await group.waitForAll()
        }
        try await a.pullAll()
        try await b.pullAll()
        await second.stop()
        XCTAssertEqual(a.replica["list"]?.count, 200)
        XCTAssertEqual(a.replica["item"]?[counter]?["quantity"], .integer(20))
        XCTAssertEqual(a.replica, b.replica)
    }

    func testSpacesSpreadAcrossTwoClustersByHash() async throws {
        let first = try requireCluster()
        let other = try PostgresCluster.start()
        defer { try? other.stop() }
        let tokens = try XCTUnwrap(tokens)
        let verifier = try await TokenVerifier(jwks: Data(tokens.jwks.utf8), source: "test JWKS")
        let configuration = SyncServerConfiguration(schema: schema, verifier: verifier)
        let urls = [first.url(), other.url()]
        let server = try await InProcessSyncServer(configuration: configuration, postgresURLs: urls)
        var expected = [0, 0]
        for index in 0..<12 {
            let user = "spread-\(index)-\(UUID().uuidString.prefix(4))"
            let a = SimulatedDevice(baseURL: server.baseURL, token: try await tokens.token(user: user))
            let b = SimulatedDevice(baseURL: server.baseURL, token: try await tokens.token(user: user))
            try await a.send(tables, [.insert(0, .text("row"), [(1, .text(user))], at: a.stamp())])
            try await b.pullAll()
            XCTAssertEqual(b.replica, a.replica)
            let home = SyncService.databaseIndex(ofSpace: "user:\(user)", among: 2)
            expected[home] += 1
            for (i, cluster) in [first, other].enumerated() {
                let count = try cluster.psql("SELECT count(*) FROM shipyard_cells WHERE space = 'user:\(user)'")
                XCTAssertEqual(
                    count.trimmingCharacters(in: .whitespacesAndNewlines), i == home ? "2" : "0",
                    "\(user) in database \(i)")
            }
        }
        await server.stop()
        XCTAssertGreaterThan(expected[0], 0, "some spaces live in the first database")
        XCTAssertGreaterThan(expected[1], 0, "and some in the second")
    }

    /// A hot standby made by pg_basebackup from a cluster of the test's own: pulls read from it
    /// when it has replayed the device's cursor, from the primary when it lags behind it or is
    /// down; a batch always goes to the primary; with the primary down, pulls go on.
    func testPullsReadFromAReplicaThatHasCaughtUpAndElseFromThePrimary() async throws {
        let primary = try PostgresCluster.start()
        defer { try? primary.stop() }
        let standby = try PostgresCluster.startReplica(of: primary)
        defer { try? standby.stop() }
        let tokens = try XCTUnwrap(tokens)
        let verifier = try await TokenVerifier(jwks: Data(tokens.jwks.utf8), source: "test JWKS")
        var configuration = SyncServerConfiguration(schema: schema, verifier: verifier)
        configuration.databaseTimeoutSeconds = 5
        let server = try await InProcessSyncServer(
            configuration: configuration, postgresURLs: [primary.url()], replicaURLs: [standby.url()])
        defer { Task { await server.stop() } }
        let user = user()
        let space = "user:\(user)"
        func device() async throws -> SimulatedDevice {
            SimulatedDevice(baseURL: server.baseURL, token: try await tokens.token(user: user))
        }
        func readFrom(_ device: SimulatedDevice) -> String {
            device.lastReply?.headers["shipyard-read-from"] ?? "primary"
        }
        func replayed() throws -> String {
            try standby.psql("SELECT coalesce(max(seq), 0) FROM shipyard_spaces WHERE space = '\(space)'")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func waitForReplay() async throws {
            let target = try primary.psql("SELECT seq FROM shipyard_spaces WHERE space = '\(space)'")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            for _ in 0..<200 where try replayed() != target { try await Task.sleep(nanoseconds: 50_000_000) }
            XCTAssertEqual(try replayed(), target, "the standby replays the primary")
        }
        let a = try await device(), b = try await device(), c = try await device()
        try await a.send(tables, [.insert(0, .text("r1"), [(1, .text("one"))], at: a.stamp())])
        XCTAssertEqual(readFrom(a), "primary", "a batch goes to the primary")
        try await waitForReplay()

        // Replay paused: B, behind the standby, reads it there (r1, not yet r2); A, whose cursor
        // is past what the standby replayed, reads the primary, and so sees C's r3.
        try standby.psql("SELECT pg_wal_replay_pause()")
        try await a.send(tables, [.insert(0, .text("r2"), [(1, .text("two"))], at: a.stamp())])
        try await c.send(tables, [.insert(0, .text("r3"), [(1, .text("three"))], at: c.stamp())])
        try await b.pullAll()
        XCTAssertEqual(readFrom(b), "replica")
        XCTAssertEqual(b.replica["list"]?.keys.sorted { "\($0)" < "\($1)" }, [.text("r1")])
        try await a.pullAll()
        XCTAssertEqual(readFrom(a), "primary", "the standby has not replayed A's own cursor")
        XCTAssertEqual(a.replica["list"]?[.text("r3")], ["title": .text("three")])

        // Replay resumed: B catches up from the standby, and ends equal to A.
        try standby.psql("SELECT pg_wal_replay_resume()")
        try await waitForReplay()
        try await b.pullAll()
        XCTAssertEqual(readFrom(b), "replica")
        XCTAssertEqual(b.replica, a.replica)

        // The primary down: a new device still pulls everything from the standby; a batch is 503.
        try primary.stop(mode: "fast", removing: false)
        let d = try await device()
        try await d.pullAll()
        XCTAssertEqual(readFrom(d), "replica")
        XCTAssertEqual(d.replica, a.replica)
        do {
            try await d.send(tables, [.insert(0, .text("r4"), [(1, .text("four"))], at: d.stamp())])
            XCTFail("a batch was answered with the primary down")
        } catch let refused as SimulatedDevice.Refused {
            XCTAssertEqual(refused.status, 503, "\(refused)")
        }

        // The primary back and the standby down: pulls fall back to the primary.
        try primary.start()
        try standby.stop(mode: "immediate", removing: false)
        let e = try await device()
        try await e.pullAll()
        XCTAssertEqual(readFrom(e), "primary")
        XCTAssertEqual(e.replica, a.replica)
    }
}
