import Logging
import NIOCore
import PostgresNIO
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// Idempotent batches (a replay answers the stored results and writes nothing; a reused device
/// id is refused) and the cursor's promise: a commit that finishes late is never skipped.
final class SyncReplayAndOrderTests: ServerTestCase {
    let tables = [ServerTestCase.list, ServerTestCase.item]

    func testAReplayedBatchIsAnsweredAgainAndWritesNothing() async throws {
        let user = user()
        let a = try await device(user), b = try await device(user)
        let key = SyncValue.text("k")
        let now = SimulatedDevice.now()
        try await b.send(tables, [.insert(0, key, [(1, .text("b"))], at: HLC(milliseconds: now - 1000))])
        let request = a.request(tables, [.update(0, key, [(1, .text("a"))], at: HLC(milliseconds: now - 5000))])
        let first = try await a.send(request)
        XCTAssertEqual(first.status, .applied)
        XCTAssertEqual(first.results.map(\.outcome), [.superseded])
        let state = try serverState()
        let replay = try SyncAnswer(decoding: try await a.post(request.encoded()).body)
        XCTAssertEqual(replay.status, .replayed)
        XCTAssertEqual(replay.results, first.results)
        // The same batch compressed is the same batch.
        let compressed = try SyncAnswer(decoding: try await a.post(request.encoded(compression: .always)).body)
        XCTAssertEqual(compressed.status, .replayed)
        XCTAssertEqual(try serverState(), state, "a replay writes nothing")
        XCTAssertEqual(try cells(of: "user:\(user)")["list 'k' title"], .text("b"))
        // After a newer batch, the older one is replayed with no results.
        XCTAssertEqual(request.batch?.id, 1)
        var newer = a.request(tables, [.update(0, key, [(1, .text("c"))], at: a.stamp(offsetMilliseconds: 120_000))])
        newer.batch?.id = 5
        try await a.send(newer)
        let old = try SyncAnswer(decoding: try await a.post(request.encoded()).body)
        XCTAssertEqual(old.status, .replayed)
        XCTAssertEqual(old.results, [])
    }

    func testTheSameBatchIdWithOtherContentIsAReusedDeviceIdAndRefused() async throws {
        let user = user()
        let a = try await device(user)
        try await a.send(tables, [.insert(0, .text("x"), [(1, .text("one"))], at: a.stamp())])
        let state = try serverState()
        var clone = a.request(tables, [.insert(0, .text("y"), [(1, .text("two"))], at: a.stamp())])
        clone.batch?.id = 1
        let reply = try await a.post(clone.encoded())
        XCTAssertEqual(reply.status, 409)
        XCTAssertTrue(reply.text.hasPrefix("sync: error: request.batch: batch 1 of device"), reply.text)
        XCTAssertEqual(try serverState(), state)
    }

    /// A writer that took its seq numbers and commits late (held here in an open transaction,
    /// as the server holds one) makes the next writer of the space wait, so a reader's cursor
    /// can never pass a seq whose commit it has not seen.
    func testALateCommitIsNeverSkippedByACursor() async throws {
        let cluster = try requireCluster()
        let user = user()
        let space = "user:\(user)"
        let writer = try await device(user), reader = try await device(user)
        try await writer.send(tables, [.insert(0, .text("first"), [(1, .text("1"))], at: writer.stamp())])
        try await reader.pullAll()
        let client = PostgresClient(configuration: try PostgresURL(cluster.url()).configuration)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let slowHolds = AsyncStream.makeStream(of: Void.self)
        let slowGo = AsyncStream.makeStream(of: Void.self)
        let slow = Task {
            let logger = Logger(label: "slow")
            try await client.withTransaction(logger: logger) { connection in
                var seq: Int64 = 0
                for try await value in try await connection.query(
                    "UPDATE shipyard_spaces SET seq = seq + 1 WHERE space = \(space) RETURNING seq", logger: logger
                ).decode(Int64.self) { seq = value }
                let pk = ByteBuffer(bytes: SyncValue.text("slow").wireEncoding)
                let one = ByteBuffer(bytes: SyncValue.integer(1).wireEncoding)
                let device = ByteBuffer(bytes: [UInt8](repeating: 7, count: 16))
                try await connection.query(
                    "INSERT INTO shipyard_cells VALUES (\(space), 'list', \(pk), '', \(one), \(Int64(1) << 40), \(device), \(seq))",
                    logger: logger)
                slowHolds.continuation.yield()
                var wait = slowGo.stream.makeAsyncIterator()
                _ = await wait.next()
            }
        }
        var held = slowHolds.stream.makeAsyncIterator()
        _ = await held.next()
        // A second writer of the space waits for the first's commit…
        let fast = Task {
            try await writer.send(tables, [.insert(0, .text("fast"), [(1, .text("2"))], at: writer.stamp())])
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        // …and meanwhile a reader sees neither, so its cursor does not move past the slow seq.
        let cursor = reader.cursor
        let during = try await reader.send(reader.request())
        XCTAssertEqual(during.rows, [])
        XCTAssertEqual(reader.cursor, cursor)
        slowGo.continuation.yield()
        try await slow.value
        try await fast.value
        try await reader.pullAll()
        XCTAssertNotNil(reader.replica["list"]?[.text("slow")], "the late commit reached the reader")
        XCTAssertNotNil(reader.replica["list"]?[.text("fast")])
    }

    /// Writers racing on one space while a reader pulls: the reader ends with every row.
    func testRacingWritersAndAPullingReaderAgree() async throws {
        let user = user()
        let writers = try await [device(user), device(user), device(user)]
        let reader = try await device(user)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (w, writer) in writers.enumerated() {
                group.addTask {
                    for batch in 0..<8 {
                        let rows = (0..<20).map {
                            SyncRowChange.insert(
                                0, .text("w\(w)-\(batch)-\($0)"), [(1, .text("v"))], at: writer.stamp())
                        }
                        try await writer.send(self.tables, rows)
                    }
                }
            }
            group.addTask {
                for _ in 0..<30 {
                    try await reader.send(reader.request(limit: 50))
                    try await Task.sleep(nanoseconds: 20_000_000)
                }
            }
            try await group.waitForAll()
        }
        try await reader.pullAll()
        XCTAssertEqual(reader.replica["list"]?.count, 3 * 8 * 20)
    }
}
