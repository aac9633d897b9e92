import ArgumentParser
import Foundation
import SyncProtocol
import SyncServerTestSupport

/// The server's throughput: concurrent simulated devices, each in a space of its own (or all in
/// one), send batches of edits for a while; prints the applied changes per second. Starts the
/// server itself (a process, with a JWKS of a key made here) over `--postgres`.
@main
struct SyncBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shipyard-sync-bench", abstract: "Measure the sync server's applied changes per second.")

    @Option(help: "The built shipyard-sync-server.") var server: String
    @Option(help: "The database URL.") var postgres: String
    @Option(help: "The user schema script the server reads.") var schema: String
    @Option(help: "Concurrent devices.") var clients: Int = 8
    @Option(help: "Changes per batch.") var batch: Int = 100
    @Option(help: "Seconds of load.") var seconds: Double = 20
    @Flag(help: "Every device in one shared space (they take turns on its lock).") var oneSpace = false

    func run() async throws {
        let tokens = try await TestTokens()
        let jwks = try tokens.writeJWKS()
        defer { try? FileManager.default.removeItem(atPath: jwks) }
        let process = try SyncServerProcess(
            executable: server,
            arguments: ["--postgres", postgres, "--schema", schema, "--jwks", jwks, "--log-level", "error"])
        defer { process.terminate() }
        let tables = [SyncTableColumns(name: "list", columns: ["title"])]
        var devices: [SimulatedDevice] = []
        for index in 0..<clients {
            let user = oneSpace ? "bench" : "bench-\(index)-\(UUID().uuidString.prefix(6))"
            let device = SimulatedDevice(baseURL: process.baseURL, token: try await tokens.token(user: user))
            // Each device's rows exist first: the load is edits of existing rows, and new ones.
            let rows = (0..<batch).map {
                SyncRowChange(
                    table: 0, key: .text("\(index)-\($0)"),
                    cells: [.init(column: 0, hlc: device.stamp(), change: .row(exists: true))])
            }
            try await device.send(tables, rows)
            try await device.pullAll()
            devices.append(device)
        }
        let start = Date()
        let deadline = start.addingTimeInterval(seconds)
        let counts = try await withThrowingTaskGroup(of: (Int, [Double]).self) { group in
            for (index, device) in devices.enumerated() {
                group.addTask {
                    var applied = 0
                    var latencies: [Double] = []
                    var round = 0
                    while Date() < deadline {
                        round += 1
                        let rows = (0..<batch).map { i in
                            SyncRowChange(
                                table: 0, key: .text("\(index)-\(i)"),
                                cells: [
                                    .init(
                                        column: 1, hlc: device.stamp(),
                                        change: .value(.text("round \(round) edit \(i)")))
                                ])
                        }
                        let began = Date()
                        let answer = try await device.send(tables, rows)
                        latencies.append(Date().timeIntervalSince(began) * 1000)
                        if answer.status == .applied { applied += rows.count - answer.results.count }
                    }
                    return (applied, latencies)
                }
            }
            var total = 0
            var all: [Double] = []
            for try await (applied, latencies) in group {
                total += applied
                all += latencies
            }
            return (total, all.sorted())
        }
        let elapsed = Date().timeIntervalSince(start)
        let (applied, latencies) = counts
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        print(
            String(
                format:
                    "sync-bench: %d clients%@, batches of %d: %.0f applied changes/s (%d in %.1f s, %.0f requests/s, latency p50 %.1f ms, p99 %.1f ms)",
                clients, oneSpace ? " in one space" : "", batch, Double(applied) / elapsed, applied, elapsed,
                Double(latencies.count) / elapsed, percentile(0.5), percentile(0.99)))
    }
}
