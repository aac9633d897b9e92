import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// UNIQUE constraints and FOREIGN KEYs of synced tables: a local row that blocks a pulled row's
/// UNIQUE value, or that the pull leaves without its parent, is deleted as a local write (so the
/// delete syncs and every device converges) and recorded as a conflict.
final class SyncConstraintTests: XCTestCase {
    private let schema =
        listSchema + """

            CREATE TABLE tag (id TEXT PRIMARY KEY NOT NULL, name TEXT UNIQUE, colour TEXT);
            INSERT INTO shipyard_sync VALUES ('tag', NULL, 'last-edit-wins');
            """

    func testALocalRowBlockingAPulledUniqueValueIsDeletedAsALocalWrite() async throws {
        let fixture = try SyncFixture(self, schema: schema)
        try fixture.sql("INSERT INTO tag VALUES ('mine', 'urgent', 'red'), ('other', 'later', NULL)")
        try await fixture.run()
        // Another device made its own 'urgent' tag, and renamed 'other' to 'urgent' too.
        fixture.server.answer { request, _ in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "tag", columns: ["name", "colour"])],
                    rows: [Pull.row(0, "theirs", exists: true, [(1, .text("urgent")), (2, .text("blue"))])],
                    cursor: 3))
        }
        let report = try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM tag ORDER BY id"), ["other|later|", "theirs|urgent|blue"])
        XCTAssertEqual(try fixture.conflicts(), ["tag|mine|name|unique-conflict|urgent|theirs"])
        XCTAssertEqual(report.conflicts, 1)
        XCTAssertEqual(try fixture.outbox(), ["tag|mine||0|"], "the delete is a local write: it syncs")
        // The next sync sends it.
        fixture.server.answer { request, _ in .answer(.acknowledging(request)) }
        try await fixture.run()
        XCTAssertEqual(fixture.server.requests.last?.batch?.summary, ["tag 'mine': row=deleted"])
    }

    func testAnUpdateThatCollidesIsRepairedTheSameWay() async throws {
        let fixture = try SyncFixture(self, schema: schema)
        try fixture.sql("INSERT INTO tag VALUES ('a', 'one', NULL), ('b', 'two', NULL)")
        try await fixture.run()
        fixture.server.answer { request, _ in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000, tables: [SyncTableColumns(name: "tag", columns: ["name"])],
                    rows: [Pull.row(0, "a", [(1, .text("two"))])], cursor: 3))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT * FROM tag"), ["a|two|"])
        XCTAssertEqual(try fixture.conflicts(), ["tag|b|name|unique-conflict|two|a"])
    }

    func testRowsOrphanedByThePullAreDeletedAsLocalWritesAndReported() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql(
            """
            INSERT INTO list VALUES ('L1', 'a', NULL), ('L2', 'b', NULL);
            INSERT INTO item (id, list_id) VALUES ('I1', 'L1'), ('I2', 'L1'), ('I3', 'L2');
            """)
        try await fixture.run()
        // Another device deleted L1 (with foreign keys off, so without its items), and a pulled
        // item names a list this device never got: a page with more to come is not checked yet.
        fixture.server.answer { request, index in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000,
                    tables: [
                        SyncTableColumns(name: "list", columns: []),
                        SyncTableColumns(name: "item", columns: ["list_id"]),
                    ],
                    rows: index == 1
                        ? [Pull.row(0, "L1", exists: false)]
                        : [Pull.row(1, "I9", exists: true, [(1, .text("L404"))])],
                    cursor: UInt64(index + 10), more: index == 1))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.lines("SELECT id FROM item ORDER BY id"), ["I3"])
        XCTAssertEqual(
            try fixture.conflicts().sorted(),
            [
                "item|I1|list_id|orphaned|L1|", "item|I2|list_id|orphaned|L1|", "item|I9|list_id|orphaned|L404|",
            ])
        XCTAssertEqual(try fixture.outbox(), ["item|I1||0|", "item|I2||0|", "item|I9||0|"])
        XCTAssertEqual(try fixture.lines("PRAGMA foreign_key_check"), [])
    }

    /// A pull that brings a parent's delete and its children's deletes in one answer orphans
    /// nothing: no conflict, no local write.
    func testACascadeThatArrivesWholeIsNoConflict() async throws {
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO list VALUES ('L1', 'a', NULL); INSERT INTO item (id, list_id) VALUES ('I1', 'L1')")
        try await fixture.run()
        fixture.server.answer { request, _ in
            .answer(
                SyncAnswer(
                    clock: 1_800_000_000_000,
                    tables: [SyncTableColumns(name: "list", columns: []), SyncTableColumns(name: "item", columns: [])],
                    rows: [Pull.row(0, "L1", exists: false), Pull.row(1, "I1", exists: false)], cursor: 4))
        }
        try await fixture.run()
        XCTAssertEqual(try fixture.conflicts(), [])
        XCTAssertEqual(try fixture.outbox(), [])
        XCTAssertEqual(try fixture.lines("SELECT count(*) FROM item"), ["0"])
    }
}
