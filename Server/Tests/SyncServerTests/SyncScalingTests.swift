import Foundation
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// Past one process and one database, as far as one machine allows: two servers on one
/// database serve one space's devices side by side; with two clusters, spaces spread by a hash
/// of their name, each space wholly in the database the hash names.
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
}
