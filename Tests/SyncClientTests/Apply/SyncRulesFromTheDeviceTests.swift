import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// Every row of docs/Sync.md's rules table, from the device's side: the server's decision comes
/// back as a result of the batch (or a pulled row), and the device ends with the server's value,
/// a conflict row where the rule says so, and its newer edits kept.
final class SyncRulesFromTheDeviceTests: XCTestCase {
    /// A fixture whose server first acknowledges the rows inserted by `setup`.
    private func fixture(_ setup: String) async throws -> SyncFixture {
        let fixture = try SyncFixture(self)
        try fixture.sql(setup)
        try await fixture.run()
        XCTAssertEqual(try fixture.outbox(), [])
        return fixture
    }

    /// Answers the next batch with `results`, each naming the column of the batch's first row
    /// by name (nil: the row cell).
    private func answer(
        _ fixture: SyncFixture, _ results: [(String?, SyncOutcome, SyncValue)], rows: [SyncPulledRow] = [],
        tables: [SyncTableColumns] = [], before: (() throws -> Void)? = nil
    ) {
        fixture.server.answer { request, _ in
            try before?()
            guard let batch = request.batch else { return .answer(.acknowledging(request)) }
            let columns = batch.tables[batch.rows[0].table].columns
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, batch: batch.id, status: .applied,
                    results: results.map { column, outcome, value in
                        SyncResult(
                            row: 0, column: column.map { (columns.firstIndex(of: $0) ?? -9) + 1 } ?? 0,
                            outcome: outcome, server: value)
                    }, tables: tables, rows: rows, cursor: 5))
        }
    }

    func testASupersededEditTakesTheServersValue() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL)")
        try fixture.sql("UPDATE list SET title = 'mine'")
        answer(fixture, [("title", .superseded, .text("theirs"))])
        let report = try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT title FROM list"), ["theirs"])
        XCTAssertEqual(try fixture.conflicts(), [], "last-edit-wins reports nothing")
        XCTAssertEqual(report.conflicts, 0)
        XCTAssertEqual(try fixture.outbox(), [], "the server's value is not sent back")
    }

    func testANewerLocalEditIsNotOverwrittenByAResult() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL)")
        try fixture.sql("UPDATE list SET title = 'mine'")
        // Edited again after the batch was frozen, before the answer: that edit is newer.
        answer(fixture, [("title", .superseded, .text("theirs"))]) {
            try fixture.sql("UPDATE list SET title = 'newer'")
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT title FROM list"), ["newer"])
        XCTAssertEqual(try fixture.outbox(), ["list|L1|title|2|"], "and it is sent by the next sync")
    }

    func testAKeepServerEditTakesTheServersValueWithoutAConflict() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', 'ann')")
        try fixture.sql("UPDATE list SET owner = 'me'")
        answer(fixture, [("owner", .keptServer, .text("ann"))])
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT owner FROM list"), ["ann"])
        XCTAssertEqual(try fixture.conflicts(), [])
    }

    func testARejectedEditTakesTheServersValueAndRecordsAConflict() async throws {
        let fixture = try await fixture("INSERT INTO note VALUES ('n1', 'server text')")
        try fixture.sql("UPDATE note SET body = 'my text'")
        answer(fixture, [("body", .rejected, .text("server text"))])
        let report = try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT body FROM note"), ["server text"])
        XCTAssertEqual(try fixture.conflicts(), ["note|n1|body|rejected|my text|server text"])
        XCTAssertEqual(report.conflicts, 1)
        XCTAssertEqual(try fixture.outbox(), [], "recording a conflict is not an edit")
    }

    func testAnEditOfARowTheServerDeletedIsDroppedAndReported() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL)")
        try fixture.sql("UPDATE list SET title = 'edited offline'")
        answer(fixture, [("title", .editOfDeletedRow, .integer(0))])
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT count(*) FROM list"), ["0"])
        XCTAssertEqual(try fixture.conflicts(), ["list|L1|title|edit-of-deleted-row|edited offline|0"])
        XCTAssertEqual(try fixture.outbox(), [], "the delete is the server's, not queued again")
    }

    func testARefusedDeleteOfARejectTableIsReportedAndTheRowComesBack() async throws {
        let fixture = try await fixture("INSERT INTO note VALUES ('n1', 'keep me')")
        try fixture.sql("DELETE FROM note")
        answer(
            fixture, [(nil, .deleteRefused, .integer(1))],
            rows: [Pull.row(0, "n1", exists: true, [(1, .text("keep me"))])],
            tables: [SyncTableColumns(name: "note", columns: ["body"])])
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM note"), ["n1|keep me"])
        XCTAssertEqual(try fixture.conflicts(), ["note|n1||delete-refused|0|1"])
        XCTAssertEqual(try fixture.outbox(), [])
    }

    func testARefusedDeleteOfAKeepServerTableComesBackWithoutAConflict() async throws {
        let fixture = try SyncFixture(
            self,
            schema: """
                CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, v TEXT);
                CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
                INSERT INTO shipyard_sync VALUES ('t', NULL, 'keep-server');
                """)
        try fixture.sql("INSERT INTO t VALUES ('k', 'v')")
        try await fixture.run()
        try fixture.sql("DELETE FROM t")
        answer(
            fixture, [(nil, .deleteRefused, .integer(1))], rows: [Pull.row(0, "k", exists: true, [(1, .text("v"))])],
            tables: [SyncTableColumns(name: "t", columns: ["v"])])
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM t"), ["k|v"])
        XCTAssertEqual(try fixture.conflicts(), [])
    }

    /// Delete after mod, where the row was inserted again later elsewhere: the delete is
    /// superseded (server row cell 1), the row comes back with the pull.
    func testASupersededDeleteBringsTheRowBack() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL)")
        try fixture.sql("DELETE FROM list")
        answer(
            fixture, [(nil, .superseded, .integer(1))],
            rows: [Pull.row(0, "L1", exists: true, [(1, .text("revived")), (2, .null)])],
            tables: [SyncTableColumns(name: "list", columns: ["title", "owner"])])
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM list"), ["L1|revived|"])
    }

    /// An insert superseded by a later delete: the row goes.
    func testASupersededInsertIsDeleted() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO list VALUES ('L1', 'a', NULL)")
        answer(fixture, [(nil, .superseded, .integer(0))])
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT count(*) FROM list"), ["0"])
        XCTAssertEqual(try fixture.outbox(), [])
    }

    /// Mod after del seen from the pull: the row deleted elsewhere goes, with the device's
    /// unsent edit of it, which is reported.
    func testAPulledDeleteDropsAndReportsPendingEditsOfTheRow() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL), ('L2', 'b', NULL)")
        fixture.server.answer { _, _ in
            // Edited here after the request left: the edit is in the outbox when the answer applies.
            try fixture.sql("UPDATE list SET title = 'pending' WHERE id = 'L1'")
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "list", columns: [])],
                    rows: [Pull.row(0, "L1", exists: false), Pull.row(0, "L2", exists: false)], cursor: 9))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT count(*) FROM list"), ["0"])
        XCTAssertEqual(try fixture.conflicts(), ["list|L1|title|edit-of-deleted-row|pending|"])
        XCTAssertEqual(try fixture.outbox(), [])
    }

    /// A row inserted again here after the server deleted it: the pull's delete leaves it; the
    /// insert goes to the server, which decides by HLC.
    func testAPulledDeleteLeavesARowInsertedAgainHere() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL)")
        fixture.server.answer { request, _ in
            try fixture.sql("DELETE FROM list; INSERT INTO list VALUES ('L1', 'again', NULL)")
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "list", columns: ["title"])],
                    rows: [Pull.row(0, "L1", exists: false)], cursor: 9))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM list"), ["L1|again|"])
        XCTAssertEqual(try fixture.outbox(), ["list|L1||1|"])
    }

    /// Column cells of a row the device does not have (no row cell with them) edit nothing:
    /// a row new here comes whole, so a partial row (its other columns at their defaults) is
    /// never made from them.
    func testColumnCellsOfARowTheDeviceLacksMakeNoPartialRow() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', NULL)")
        fixture.server.answer { _, _ in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "list", columns: ["title", "owner"])],
                    rows: [Pull.row(0, "ghost", [(2, .text("bob"))]), Pull.row(0, "L1", [(1, .text("b"))])],
                    cursor: 9))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM list"), ["L1|b|"])
        XCTAssertEqual(try fixture.outbox(), [])
    }

    /// A pulled row never overwrites the columns the device edited and has not sent yet.
    func testPendingLocalEditsAreNotOverwrittenByPulls() async throws {
        let fixture = try await fixture("INSERT INTO list VALUES ('L1', 'a', 'ann')")
        fixture.server.answer { request, _ in
            try fixture.sql("UPDATE list SET title = 'mine'")
            return .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "list", columns: ["title", "owner"])],
                    rows: [Pull.row(0, "L1", [(1, .text("theirs")), (2, .text("bob"))])], cursor: 9))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT title, owner FROM list"), ["mine|bob"])
        XCTAssertEqual(try fixture.outbox(), ["list|L1|title|2|"])
    }
}
