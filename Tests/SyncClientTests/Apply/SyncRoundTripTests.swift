import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// One sync from the device's side, against answers built with SyncProtocol: what the request
/// carries, how pulled rows are written, and the state kept between syncs.
final class SyncRoundTripTests: XCTestCase {
    func testTheFirstSyncSendsTheCapturedRowsAndKeepsTheCursor() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql(
            """
            INSERT INTO list VALUES ('L1', 'Groceries', NULL);
            INSERT INTO item (id, list_id, name, quantity) VALUES ('I1', 'L1', 'milk', 2);
            """)
        fixture.server.answer { request, _ in .answer(.acknowledging(request, cursor: 2)) }
        let report = try await fixture.run()
        let request = try XCTUnwrap(fixture.server.requests.first)
        let batch = try XCTUnwrap(request.batch)
        XCTAssertEqual(batch.id, 1)
        XCTAssertEqual(request.cursor, 0)
        XCTAssertEqual(request.clock, UInt64(fixture.deviceClock))
        XCTAssertEqual(
            batch.summary.sorted(),
            [
                "item 'I1': row=exists list_id='L1' name='milk' done=0 quantity+=2",
                "list 'L1': row=exists title='Groceries' owner=NULL",
            ])
        // Every cell of a new row carries the row cell's HLC unless it was edited on its own.
        for row in batch.rows { XCTAssertEqual(Set(row.cells.map(\.hlc)).count, 1) }
        XCTAssertEqual(report.sent, 8)
        XCTAssertEqual(report.requests, 1)
        XCTAssertEqual(report.cursor, 2)
        XCTAssertEqual(try fixture.outbox(), [])
        XCTAssertEqual(try fixture.inflightCount(), 0)
        XCTAssertEqual(try fixture.state("cursor"), .integer(2))
        XCTAssertEqual(try fixture.state("next_batch"), .integer(2))
        guard case .blob(let device) = try fixture.state("device_id") else { return XCTFail("no device id") }
        XCTAssertEqual(device.count, 16)
        XCTAssertEqual(request.device.bytes, [UInt8](device))
        XCTAssertEqual(try fixture.state("hlc_max"), .integer(batch.rows[0].cells[0].hlc.rawValue))
        XCTAssertEqual(try fixture.lines("PRAGMA journal_mode"), ["wal"], "the app keeps reading during an apply")
        XCTAssertEqual(try fixture.state("applying"), .integer(0))
    }

    func testNothingToSendAndNothingNewIsOneSmallRequest() async throws {
        let fixture = try SyncFixture(self)
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.count, 1)
        XCTAssertNil(fixture.server.requests[0].batch)
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.count, 2)
        XCTAssertLessThan(fixture.server.bodies[1].count, 40)
        XCTAssertEqual(fixture.server.requests[0].device, fixture.server.requests[1].device, "one device id")
    }

    func testPulledRowsAreWrittenAndNotCaptured() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO list VALUES ('L1', 'old', 'me'), ('L2', 'gone', NULL)")
        try await fixture.run()
        fixture.server.answer { request, _ in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000,
                    tables: [
                        SyncTableColumns(name: "list", columns: ["title", "colour", "owner"]),
                        SyncTableColumns(name: "item", columns: ["name", "list_id"]),
                        SyncTableColumns(name: "not_synced_here", columns: ["x"]),
                    ],
                    rows: [
                        Pull.row(0, "L1", [(1, .text("new"))]), // an update, one column
                        Pull.row(0, "L2", exists: false), // a delete
                        Pull.row(0, "L3", exists: true, [(1, .text("t3")), (2, .text("blue")), (3, .null)]),
                        // done and quantity: their defaults.
                        Pull.row(1, "I1", exists: true, [(1, .text("bread")), (2, .text("L3"))]),
                        Pull.row(2, "X", exists: true, [(1, .integer(1))]),
                    ],
                    cursor: 17, hlc: HLC(milliseconds: 1_800_000_000_500)))
        }
        let report = try await fixture.run()
        XCTAssertEqual(report.received, 5)
        XCTAssertEqual(try fixture.lines("SELECT * FROM list ORDER BY id"), ["L1|new|me", "L3|t3|"])
        XCTAssertEqual(try fixture.lines("SELECT * FROM item"), ["I1|L3|bread|0|0"])
        XCTAssertEqual(try fixture.outbox(), [], "the sync's own writes are not queued")
        XCTAssertEqual(try fixture.state("cursor"), .integer(17))
        XCTAssertEqual(try fixture.state("hlc_max"), .integer(HLC(milliseconds: 1_800_000_000_500).rawValue))
        XCTAssertEqual(fixture.server.requests.last?.cursor, 0)
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.last?.cursor, 17, "the next sync asks from the cursor")
    }

    func testMoreMeansAskAgainFromTheNewCursor() async throws {
        let fixture = try SyncFixture(self)
        fixture.server.answer { request, index in
            let more = index < 2
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "list", columns: ["title"])],
                    rows: [Pull.row(0, "L\(index)", exists: true, [(1, .text("page \(index)"))])],
                    cursor: UInt64(10 * (index + 1)), more: more))
        }
        let report = try await fixture.run()
        XCTAssertEqual(fixture.server.requests.map(\.cursor), [0, 10, 20])
        XCTAssertEqual(report.requests, 3)
        XCTAssertEqual(report.received, 3)
        XCTAssertEqual(try fixture.lines("SELECT id FROM list ORDER BY id"), ["L0", "L1", "L2"])
    }

    func testTheOffsetFollowsTheServersClockWhenItDiffersByMoreThanASecond() async throws {
        let fixture = try SyncFixture(self)
        fixture.server.answer { _, _ in .answer(SyncAnswer(clock: 1_800_000_000_900)) }
        try await fixture.run()
        XCTAssertEqual(try fixture.state("offset_ms"), .integer(0), "within a second: kept")
        fixture.server.answer { _, _ in .answer(SyncAnswer(clock: 1_800_000_010_000)) }
        try await fixture.run()
        XCTAssertEqual(try fixture.state("offset_ms"), .integer(10_000))
        // The capture stamps edits with the offset: now + 10 s.
        try fixture.sql("INSERT INTO note VALUES ('n', 'x')")
        let hlc = try XCTUnwrap(try fixture.sql("SELECT hlc FROM shipyard_sync_outbox")[0][0].integer)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        XCTAssertGreaterThanOrEqual(hlc >> 16, now + 10_000 - 1000)
        XCTAssertLessThanOrEqual(hlc >> 16, now + 10_000 + 1000)
    }

    func testEditsMadeDuringASyncAreSentByTheNext() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO list VALUES ('L1', 'a', NULL)")
        fixture.server.answer { request, index in
            if index == 0 {
                try fixture.sql("UPDATE list SET title = 'edited meanwhile'; INSERT INTO note VALUES ('n', 'x')")
            }
            return .answer(.acknowledging(request))
        }
        let first = try await fixture.run()
        XCTAssertEqual(first.requests, 1, "the rows of the start are delivered: done")
        XCTAssertEqual(try fixture.outbox(), ["list|L1|title|2|", "note|n||1|"])
        try await fixture.run()
        XCTAssertEqual(
            fixture.server.requests.last?.batch?.summary.sorted(),
            ["list 'L1': title='edited meanwhile'", "note 'n': row=exists body='x'"])
        XCTAssertEqual(try fixture.outbox(), [])
    }

    func testBatchesAreCutAtTheConfiguredRowsAndEveryRowOfTheStartIsSent() async throws {
        let fixture = try SyncFixture(self)
        fixture.configuration.batchRows = 3
        try fixture.sql(
            "WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 10) INSERT INTO note SELECT 'n' || v, 'x' FROM n"
        )
        let report = try await fixture.run()
        XCTAssertEqual(fixture.server.requests.map { $0.batch?.rows.count ?? 0 }, [3, 3, 3, 1])
        XCTAssertEqual(fixture.server.requests.map { $0.batch?.id ?? 0 }, [1, 2, 3, 4])
        XCTAssertEqual(report.sent, 20)
        XCTAssertEqual(try fixture.outbox(), [])
    }
}
