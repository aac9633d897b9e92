import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// One sync's loop: refusals and the retries it makes (a clock ahead, a reused device id),
/// cancellation between requests, the schema fingerprint, the token provider, calls one after
/// another.
final class SyncSessionTests: XCTestCase {
    func testARefusalEndsTheSyncNamingTheStatusAndKeepsEverythingQueued() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO note VALUES ('n', 'x')")
        for (status, reason) in [
            (401, "the token has expired"), (403, "space"), (422, "table 'note' does not sync"), (503, "retry"),
        ] {
            fixture.server.answer { _, _ in .refusal(status, reason) }
            do {
                try await fixture.run()
                XCTFail("no error for \(status)")
            } catch let error as SyncClientError {
                XCTAssertEqual(error, .refused(status: status, reason: reason))
                XCTAssertEqual(error.description, "server: error: HTTP \(status): \(reason)")
            }
            XCTAssertEqual(try fixture.inflightCount(), 2, "the batch waits in flight")
        }
        XCTAssertEqual(Set(fixture.server.bodies).count, 1, "one batch, resent as it was")
    }

    func testAClockAheadOfTheServersIsCorrectedAndTheEditsRestamped() async throws {
        let fixture = try SyncFixture(self)
        // The device's clock runs an hour ahead of the server's, and so do its edits.
        fixture.deviceClock = fixture.server.clock + 3_600_000
        try fixture.sql(
            "UPDATE shipyard_sync_state SET hlc_max = ?", [.integer((fixture.deviceClock + 5) << 16)])
        try fixture.sql("INSERT INTO note VALUES ('n', 'x')")
        let serverNow = fixture.server.clock
        // The server refuses a request whose clock or any HLC is over 5 minutes ahead of its own:
        // the device's offset and re-stamped edits must bring both back.
        fixture.server.answer { request, _ in
            let hlcAhead =
                request.batch?.rows.contains { row in row.cells.contains { $0.hlc.milliseconds > serverNow + 300_000 } }
                ?? false
            if request.clock > UInt64(serverNow + 300_000) || hlcAhead {
                return .refusal(400, "request.clock: the device's clock is ahead")
            }
            return .answer(.acknowledging(request, clock: UInt64(serverNow)))
        }
        let report = try await fixture.run()
        XCTAssertEqual(report.requests, 2)
        XCTAssertEqual(fixture.server.requests[1].clock, UInt64(serverNow), "the device's clock, corrected")
        let resent = try XCTUnwrap(fixture.server.requests[1].batch)
        XCTAssertTrue(resent.rows[0].cells.allSatisfy { $0.hlc <= HLC.ceiling(ofMilliseconds: serverNow) })
        XCTAssertEqual(try fixture.state("offset_ms"), .integer(-3_600_000))
        XCTAssertLessThanOrEqual(
            try XCTUnwrap(try fixture.state("hlc_max").integer), HLC.ceiling(ofMilliseconds: serverNow).rawValue)
    }

    func testARefusalOfTheClockThatPersistsEndsTheSync() async throws {
        let fixture = try SyncFixture(self)
        fixture.deviceClock = fixture.server.clock + 3_600_000
        fixture.server.answer { _, _ in .refusal(400, "ahead") }
        do {
            try await fixture.run()
            XCTFail("no error")
        } catch let error as SyncClientError {
            XCTAssertEqual(error, .refused(status: 400, reason: "ahead"))
        }
        XCTAssertEqual(fixture.server.requests.count, 2, "one retry after correcting the clock")
    }

    func testADeviceIDTheServerSaysIsAnothersIsReplaced() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO note VALUES ('n', 'x')")
        fixture.server.answer { request, index in
            index == 0 ? .refusal(409, "batch 1 of this device was another batch") : .answer(.acknowledging(request))
        }
        try await fixture.run()
        let requests = fixture.server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertNotEqual(requests[0].device, requests[1].device)
        XCTAssertEqual(requests[0].batch, requests[1].batch)
        guard case .blob(let stored) = try fixture.state("device_id") else { return XCTFail("no device id") }
        XCTAssertEqual([UInt8](stored), requests[1].device.bytes)
    }

    func testCancellingStopsBetweenRequestsAndKeepsWhatWasApplied() async throws {
        let fixture = try SyncFixture(self)
        let sync = fixture.sync()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        fixture.server.answer { _, index in
            if index == 1 {
                started.signal()
                proceed.wait()
            }
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "list", columns: ["title"])],
                    rows: [Pull.row(0, "L\(index)", exists: true, [(1, .text("t"))])], cursor: UInt64(index + 1),
                    more: true))
        }
        let task = Task { try await sync.sync() }
        await Task.detached { started.wait() }.value
        task.cancel()
        proceed.signal()
        do {
            _ = try await task.value
            XCTFail("not cancelled")
        } catch let error as SyncClientError {
            XCTAssertEqual(error, .cancelled)
        }
        XCTAssertEqual(fixture.server.requests.count, 2, "no request after the cancellation")
        XCTAssertEqual(try fixture.lines("SELECT id FROM list ORDER BY id"), ["L0", "L1"], "both answers applied")
        XCTAssertEqual(try fixture.state("cursor"), .integer(2))
    }

    func testAChangedSetOfSyncedColumnsResetsTheCursorOnce() async throws {
        let fixture = try SyncFixture(self)
        fixture.server.answer { request, _ in .answer(.acknowledging(request, cursor: 50)) }
        try await fixture.run()
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.map(\.cursor), [0, 50])
        // An app update adds a synced column.
        var migrator = UserDatabaseMigrator()
        migrator.registerMigration(version: 2, "colour", sql: "ALTER TABLE list ADD COLUMN colour TEXT")
        let connection = try Connection(path: fixture.path)
        try migrator.migrate(connection)
        connection.close()
        try await fixture.run()
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.map(\.cursor), [0, 50, 0, 50], "from 0 once, to receive every colour")
        XCTAssertTrue(try fixture.state("schema").shellText.contains("colour"))
    }

    func testTheTokenIsAskedForEachRequestAndItsFailureStopsTheSync() async throws {
        let fixture = try SyncFixture(self)
        let counter = Counter()
        try await fixture.sync(token: { "token-\(counter.next())" }).sync()
        XCTAssertEqual(fixture.server.headers.last?.first { $0.name == "Authorization" }?.value, "Bearer token-1")
        struct Expired: Error {}
        do {
            _ = try await fixture.sync(token: { throw Expired() }).sync()
            XCTFail("no error")
        } catch let error as SyncClientError {
            XCTAssertEqual(error.subject, "token")
        }
        XCTAssertEqual(fixture.server.requests.count, 1, "no request without a token")
    }

    func testTheRequestHeaders() async throws {
        let fixture = try SyncFixture(self)
        try await fixture.run()
        let headers = Dictionary(uniqueKeysWithValues: (fixture.server.headers.first ?? []).map { ($0.name, $0.value) })
        XCTAssertEqual(headers["Content-Type"], "application/x-shipyard-sync")
        XCTAssertEqual(headers["Accept-Encoding"], "identity")
        XCTAssertEqual(headers["Authorization"], "Bearer token")
    }

    func testSyncsOfOneObjectRunOneAfterAnother() async throws {
        let fixture = try SyncFixture(self)
        let inFlight = Counter()
        let overlapped = Counter()
        fixture.server.answer { request, _ in
            if inFlight.next() > 1 { _ = overlapped.next() }
            Thread.sleep(forTimeInterval: 0.02)
            inFlight.decrement()
            return .answer(.acknowledging(request))
        }
        let sync = fixture.sync()
        try await withThrowingTaskGroup(of: SyncReport.self) { group in
            for _ in 0..<5 { group.addTask { try await sync.sync() } }
            for try await _ in group {}
        }
        XCTAssertEqual(fixture.server.requests.count, 5)
        XCTAssertEqual(overlapped.value, 0)
    }

    func testADatabaseThatDeclaresNothingIsRefused() async throws {
        let fixture = try SyncFixture(self, schema: "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL);")
        do {
            try await fixture.run()
            XCTFail("no error")
        } catch let error as SyncClientError {
            XCTAssertTrue(error.description.hasPrefix("user database: error: "), error.description)
            XCTAssertTrue(error.description.contains("declares no synced table"), error.description)
        }
        XCTAssertEqual(fixture.server.requests.count, 0)
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    func decrement() { lock.withLock { count -= 1 } }
    var value: Int { lock.withLock { count } }
}
