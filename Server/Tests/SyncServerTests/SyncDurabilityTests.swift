import Foundation
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// Nothing is lost, and nothing applied twice, when the server process is killed with SIGKILL
/// in the middle of requests, or PostgreSQL is stopped as by a crash and started again: the
/// device resends the same batch until it is acknowledged, and every counter increment counts
/// exactly once.
final class SyncDurabilityTests: ServerTestCase {
    let tables = [ServerTestCase.list, ServerTestCase.item]

    override func configure(_ configuration: SyncServerConfiguration) -> SyncServerConfiguration {
        var configuration = configuration
        configuration.databaseTimeoutSeconds = 3
        return configuration
    }

    /// The built executable `name`, beside the test bundle.
    static func executable(_ name: String) -> String {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
            .path
    }

    /// A batch of 500 new rows and one increment of the counter of `counterKey`.
    func batch(_ device: SimulatedDevice, round: Int, counterKey: SyncValue) -> SyncRequest {
        var rows = (0..<500).map {
            SyncRowChange.insert(0, .text("r\(round)-\($0)"), [(1, .text("round \(round)"))], at: device.stamp())
        }
        rows.append(.increment(1, counterKey, column: 4, by: 1, at: device.stamp()))
        return device.request(tables, rows)
    }

    /// Sends `request` until it is acknowledged (applied now or before), as a device retries.
    func sendUntilAcknowledged(_ request: SyncRequest, by device: SimulatedDevice) async throws -> (
        SyncAnswer, failures: Int
    ) {
        var failures = 0
        while true {
            do {
                return (try await device.send(request), failures)
            } catch {
                failures += 1
                guard failures < 200 else { throw error }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
    }

    func testKillingTheServerProcessMidRequestLosesNothingAndAppliesNothingTwice() async throws {
        let cluster = try requireCluster()
        let tokens = try XCTUnwrap(tokens)
        let jwks = try tokens.writeJWKS()
        let schemaFile = NSTemporaryDirectory() + "/sync-schema-\(UUID().uuidString).sql"
        try Self.schemaScript.write(toFile: schemaFile, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: jwks)
            try? FileManager.default.removeItem(atPath: schemaFile)
        }
        let arguments = ["--postgres", cluster.url(), "--schema", schemaFile, "--jwks", jwks]
        let executable = Self.executable("shipyard-sync-server")
        var process = try SyncServerProcess(executable: executable, arguments: arguments)
        let user = user()
        let device = SimulatedDevice(baseURL: process.baseURL, token: try await tokens.token(user: user))
        let counterKey = SyncValue.text("counter")
        try await device.send(tables, [.insert(1, counterKey, [(1, .text("L"))], at: device.stamp())])
        let delays: [UInt64] = [0, 2, 5, 10, 20, 40, 80]
        for (round, delay) in delays.enumerated() {
            let request = batch(device, round: round, counterKey: counterKey)
            let body = request.encoded()
            let inflight = Task { try? await device.post(body) }
            try await Task.sleep(nanoseconds: delay * 1_000_000)
            process.kill9()
            _ = await inflight.value
            process = try SyncServerProcess(executable: executable, arguments: arguments)
            device.baseURL = process.baseURL
            let (answer, _) = try await sendUntilAcknowledged(request, by: device)
            XCTAssertTrue(answer.status == .applied || answer.status == .replayed)
        }
        process.terminate()
        let cells = try cells(of: "user:\(user)")
        XCTAssertEqual(cells["item 'counter' quantity"], .integer(Int64(delays.count)), "each increment exactly once")
        XCTAssertEqual(cells.keys.filter { $0.hasPrefix("list ") && $0.hasSuffix(" title") }.count, 500 * delays.count)
    }

    func testARestartOfPostgresFailsTheRequestsInFlightAndTheRetriesSucceed() async throws {
        let cluster = try requireCluster()
        let user = user()
        let device = try await device(user)
        let counterKey = SyncValue.text("counter")
        try await device.send(tables, [.insert(1, counterKey, [(1, .text("L"))], at: device.stamp())])
        var failures = 0
        let rounds = 3
        for round in 0..<rounds {
            let request = batch(device, round: round, counterKey: counterKey)
            let body = request.encoded()
            let inflight = Task { try? await device.post(body) }
            try await Task.sleep(nanoseconds: UInt64(round) * 5_000_000)
            try cluster.stop(mode: "immediate", removing: false)
            let reply = await inflight.value
            if let reply, reply.status != 200 {
                XCTAssertEqual(reply.status, 503, reply.text)
                XCTAssertTrue(reply.text.hasSuffix("retry\n"), reply.text)
            }
            // While the database is down, a request fails with 503 and writes nothing.
            let down = try await device.post(body)
            XCTAssertEqual(down.status, 503, down.text)
            XCTAssertTrue(down.text.hasSuffix("retry\n"), down.text)
            try cluster.start()
            let (answer, retried) = try await sendUntilAcknowledged(request, by: device)
            failures += retried
            XCTAssertTrue(answer.status == .applied || answer.status == .replayed)
        }
        let cells = try cells(of: "user:\(user)")
        XCTAssertEqual(cells["item 'counter' quantity"], .integer(Int64(rounds)), "each increment exactly once")
        XCTAssertEqual(cells.keys.filter { $0.hasPrefix("list ") && $0.hasSuffix(" title") }.count, 500 * rounds)
        _ = failures
    }
}
