import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// Nothing is lost or counted twice, whatever happens between freezing a batch and applying its
/// answer: a lost answer leaves the batch in flight, resent byte for byte; counters travel as
/// increments, each acknowledged once; an answer that cannot be applied changes nothing.
final class SyncExactlyOnceTests: XCTestCase {
    private func itemFixture() async throws -> SyncFixture {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO list VALUES ('L1', 'a', NULL); INSERT INTO item (id, list_id) VALUES ('I1', 'L1')")
        try await fixture.run()
        return fixture
    }

    func testALostAnswerLeavesTheBatchInFlightToBeSentAgainAsItWas() async throws {
        let fixture = try await itemFixture()
        try fixture.sql("UPDATE item SET quantity = quantity + 2, name = 'x'")
        fixture.server.answer { _, _ in .lost }
        do {
            try await fixture.run()
            XCTFail("the sync succeeded without an answer")
        } catch let error as SyncClientError {
            XCTAssertEqual(error, .transport("connection reset"))
        }
        XCTAssertEqual(try fixture.inflightCount(), 2)
        XCTAssertEqual(try fixture.outbox(), [], "frozen: out of the outbox, in the batch in flight")
        // Edited meanwhile: a new outbox entry, the batch in flight unchanged.
        try fixture.sql("UPDATE item SET quantity = quantity + 3")
        XCTAssertEqual(try fixture.outbox(), ["item|I1|quantity|3|3"])

        // The server had applied it: the answer to the resend replays its stored results; and
        // someone else added 10 meanwhile.
        fixture.server.answer { request, index in
            guard let batch = request.batch else { return .answer(.acknowledging(request)) }
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, batch: batch.id, status: index == 2 ? .replayed : .applied,
                    tables: [SyncTableColumns(name: "item", columns: ["quantity"])],
                    rows: index == 2 ? [Pull.row(0, "I1", [(1, .integer(12))])] : [], cursor: 30))
        }
        let report = try await fixture.run()
        let requests = fixture.server.requests
        XCTAssertEqual(requests.count, 4)
        XCTAssertEqual(fixture.server.bodies[2], fixture.server.bodies[1], "the same batch, byte for byte")
        XCTAssertEqual(requests[2].batch?.id, requests[1].batch?.id)
        XCTAssertEqual(requests[2].batch?.summary, ["item 'I1': name='x' quantity+=2"])
        XCTAssertEqual(requests[3].batch?.summary, ["item 'I1': quantity+=3"], "then the increment made meanwhile")
        XCTAssertEqual(requests[3].batch?.id, (requests[2].batch?.id ?? 0) + 1)
        XCTAssertEqual(try fixture.lines("SELECT quantity FROM item"), ["15"], "the server's 12 plus the unsent 3")
        XCTAssertEqual(try fixture.inflightCount(), 0)
        XCTAssertEqual(try fixture.outbox(), [])
        XCTAssertEqual(report.sent, 3)
    }

    func testIncrementsFromManyWritesAddUpOnceEach() async throws {
        let fixture = try await itemFixture()
        for _ in 0..<7 { try fixture.sql("UPDATE item SET quantity = quantity + 1") }
        try fixture.sql("UPDATE item SET quantity = quantity - 2")
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.last?.batch?.summary, ["item 'I1': quantity+=5"])
        try await fixture.run()
        XCTAssertNil(fixture.server.requests.last?.batch, "sent once")
    }

    /// A result naming a cell the batch does not have: the whole answer is refused, nothing of it
    /// applied (not its pulled rows, not its cursor), the batch stays in flight.
    func testAnAnswerThatCannotBeAppliedChangesNothing() async throws {
        let fixture = try await itemFixture()
        try fixture.sql("UPDATE item SET name = 'local'")
        fixture.server.answer { request, _ in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, batch: request.batch?.id ?? 0, status: .applied,
                    results: [SyncResult(row: 7, column: 1, outcome: .superseded, server: .text("x"))],
                    tables: [SyncTableColumns(name: "list", columns: ["title"])],
                    rows: [Pull.row(0, "L9", exists: true, [(1, .text("pulled"))])], cursor: 99))
        }
        do {
            try await fixture.run()
            XCTFail("applied")
        } catch SyncClientError.invalidAnswer(let reason) {
            XCTAssertTrue(reason.contains("row 7"), reason)
        }
        XCTAssertEqual(try fixture.lines("SELECT count(*) FROM list"), ["1"])
        XCTAssertEqual(try fixture.state("cursor"), .integer(0))
        XCTAssertEqual(try fixture.state("applying"), .integer(0))
        XCTAssertEqual(try fixture.inflightCount(), 1)
        XCTAssertEqual(try fixture.conflicts(), [])
    }

    func testAnAnswerAcknowledgingAnotherBatchOrUndecodableIsRefused() async throws {
        let fixture = try await itemFixture()
        try fixture.sql("UPDATE item SET name = 'local'")
        let cases: [(ScriptedSyncServer.Reply, String)] = [
            (.answer(SyncAnswer(clock: 1, batch: 99, status: .applied)), "acknowledges batch 99"),
            (.answer(SyncAnswer(clock: 1)), "acknowledges batch 0"),
            (.raw([0, 1, 5], contentType: "application/x-shipyard-sync"), "answer"),
            (.raw([], contentType: "text/html"), "Content-Type is 'text/html'"),
        ]
        for (reply, says) in cases {
            fixture.server.answer { _, _ in reply }
            do {
                try await fixture.run()
                XCTFail("applied \(reply)")
            } catch SyncClientError.invalidAnswer(let reason) {
                XCTAssertTrue(reason.contains(says), "\(reason) does not say \(says)")
            }
            XCTAssertEqual(try fixture.inflightCount(), 1)
        }
    }
}
