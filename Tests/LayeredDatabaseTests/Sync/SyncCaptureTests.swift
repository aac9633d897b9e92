import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// The capture queues every write to a synced table in the outbox, whatever connection makes
/// it: the sqlite3 shell is the oracle that writes, and reads the outbox back. Run again with
/// `SHIPYARD_APPLE_SQLITE_DEFAULTS=1`, the in-process writes meet recursive triggers on.
final class SyncCaptureTests: LayeredDatabaseTestCase {
    func testWritesBySqlite3AreQueuedOneEntryPerCell() throws {
        let path = try makeCapturedDatabase(self)
        try sqlite3(
            path,
            """
            INSERT INTO list VALUES ('L1', 'Groceries', NULL);
            INSERT INTO item (id, list_id, name, quantity) VALUES ('I1', 'L1', 'milk', 2);
            UPDATE item SET quantity = quantity + 3 WHERE id = 'I1';
            UPDATE item SET name = 'oat milk', done = done WHERE id = 'I1';
            UPDATE list SET title = 'Groceries' WHERE id = 'L1';
            """)
        XCTAssertEqual(
            try outboxLines(path),
            ["item|I1||1|", "item|I1|name|2|", "item|I1|quantity|3|5", "list|L1||1|"])
        // An unchanged value (done = done, title set to itself) makes no entry.
    }

    func testUpdatesOfSyncedRowsMakeCellEntriesAndCountersIncrements() throws {
        let path = try makeCapturedDatabase(self)
        try sqlite3(
            path,
            """
            INSERT INTO list VALUES ('L1', 'a', NULL);
            INSERT INTO item (id, list_id) VALUES ('I1', 'L1');
            DELETE FROM shipyard_sync_outbox;
            UPDATE item SET quantity = 4 WHERE id = 'I1';
            UPDATE item SET quantity = 1 WHERE id = 'I1';
            UPDATE item SET done = 1, name = 'x' WHERE id = 'I1';
            UPDATE list SET owner = 'me';
            """)
        XCTAssertEqual(
            try outboxLines(path),
            ["item|I1|done|2|", "item|I1|name|2|", "item|I1|quantity|3|1", "list|L1|owner|2|"])
    }

    func testADeleteQueuesTheRowCellAndDropsTheRowsColumnEntries() throws {
        let path = try makeCapturedDatabase(self)
        try sqlite3(
            path,
            """
            INSERT INTO list VALUES ('L1', 'a', NULL), ('L2', 'b', NULL);
            DELETE FROM shipyard_sync_outbox;
            UPDATE list SET title = 'c' WHERE id = 'L1';
            UPDATE list SET title = 'd' WHERE id = 'L2';
            DELETE FROM list WHERE id = 'L1';
            """)
        XCTAssertEqual(try outboxLines(path), ["list|L1||0|", "list|L2|title|2|"])
        // Inserted again: the row cell says it exists.
        try sqlite3(path, "INSERT INTO list VALUES ('L1', 'again', NULL);")
        XCTAssertEqual(try outboxLines(path), ["list|L1||1|", "list|L2|title|2|"])
    }

    func testAKeyChangeIsADeleteOfTheOldKeyAndAnInsertOfTheNew() throws {
        let path = try makeCapturedDatabase(self)
        try sqlite3(
            path,
            """
            INSERT INTO list VALUES ('L1', 'a', NULL);
            INSERT INTO item (id, list_id, quantity) VALUES ('I1', 'L1', 7);
            DELETE FROM shipyard_sync_outbox;
            UPDATE item SET id = 'I2', name = 'renamed' WHERE id = 'I1';
            """)
        XCTAssertEqual(try outboxLines(path), ["item|I1||0|", "item|I2||1|", "item|I2|quantity|3|7"])
    }

    func testCascadedDeletesAreCaptured() throws {
        let path = try makeCapturedDatabase(self)
        try sqlite3(
            path,
            """
            PRAGMA foreign_keys = ON;
            INSERT INTO list VALUES ('L1', 'a', NULL);
            INSERT INTO item (id, list_id) VALUES ('I1', 'L1'), ('I2', 'L1');
            DELETE FROM shipyard_sync_outbox;
            DELETE FROM list WHERE id = 'L1';
            """)
        XCTAssertEqual(try outboxLines(path), ["item|I1||0|", "item|I2||0|", "list|L1||0|"])
    }

    func testTheSyncsOwnWritesAreNotCaptured() throws {
        let path = try makeCapturedDatabase(self)
        try sqlite3(
            path,
            """
            BEGIN;
            UPDATE shipyard_sync_state SET applying = 1;
            INSERT INTO list VALUES ('L1', 'a', NULL);
            UPDATE list SET title = 'b';
            DELETE FROM list;
            INSERT INTO list VALUES ('L2', 'a', NULL);
            UPDATE list SET id = 'L3';
            UPDATE shipyard_sync_state SET applying = 0;
            COMMIT;
            """)
        XCTAssertEqual(try outboxLines(path), [])
    }

    func testHLCsFollowTheClockAndOnlyMoveForwardPerCell() throws {
        let path = try makeCapturedDatabase(self)
        let before = nowMilliseconds()
        try sqlite3(path, "INSERT INTO list VALUES ('L1', 'a', NULL);")
        let after = nowMilliseconds()
        let first = try XCTUnwrap(try outbox(path).first)
        XCTAssertGreaterThanOrEqual(first.hlc >> 16, before - 1)
        XCTAssertLessThanOrEqual(first.hlc >> 16, after + 1)
        XCTAssertEqual(first.hlc & 0xFFFF, 0)
        // A clock far behind (offset) or hlc_max ahead: each entry is after hlc_max and after
        // the cell's previous entry.
        let ahead = (after + 3_600_000) << 16
        try sqlite3(
            path,
            """
            UPDATE shipyard_sync_state SET hlc_max = \(ahead);
            UPDATE list SET title = 'b';
            UPDATE list SET title = 'c';
            """)
        let title = try XCTUnwrap(try outbox(path).first { $0.column == "title" })
        XCTAssertEqual(title.hlc, ahead + 2, "hlc_max + 1, then the entry's own + 1")
        try sqlite3(
            path, "UPDATE shipyard_sync_state SET hlc_max = 0, offset_ms = 86400000; UPDATE list SET owner = 'o';")
        let owner = try XCTUnwrap(try outbox(path).first { $0.column == "owner" })
        XCTAssertGreaterThanOrEqual(owner.hlc >> 16, before + 86_400_000 - 1)
    }

    /// Written through this process's SQLite (recursive triggers on under Apple's defaults, and
    /// a REPLACE that deletes the row first): the same outbox as the sqlite3 shell makes.
    func testInProcessWritesMatchTheShell() throws {
        let script = """
            INSERT INTO list VALUES ('L1', 'a', NULL);
            INSERT INTO item (id, list_id, quantity) VALUES ('I1', 'L1', 2);
            UPDATE item SET quantity = 5, name = 'n' WHERE id = 'I1';
            INSERT INTO item (id, list_id) VALUES ('I2', 'L1') ON CONFLICT (id) DO UPDATE SET name = 'upserted';
            INSERT INTO item (id, list_id) VALUES ('I1', 'L1') ON CONFLICT (id) DO UPDATE SET name = 'upserted';
            DELETE FROM item WHERE id = 'I2';
            """
        let shell = try makeCapturedDatabase(self)
        try sqlite3(shell, script)
        let inProcess = try makeCapturedDatabase(self)
        let connection = try Connection(path: inProcess)
        try connection.execute(script)
        connection.close()
        XCTAssertEqual(try outboxLines(inProcess), try outboxLines(shell))
        XCTAssertEqual(
            try outboxLines(shell),
            ["item|I1||1|", "item|I1|name|2|", "item|I1|quantity|3|5", "item|I2||0|", "list|L1||1|"])
    }

    func testARefreshThatChangesNothingChangesNoSchema() throws {
        let path = try makeCapturedDatabase(self)
        let version = try sqlite3(path, "PRAGMA schema_version;")
        let connection = try Connection(path: path)
        XCTAssertTrue(try SyncCapture.isCurrent(on: connection))
        try SyncCapture.refresh(on: connection)
        connection.close()
        XCTAssertEqual(try sqlite3(path, "PRAGMA schema_version;"), version)
    }

    func testARefreshFollowsTheDeclarations() throws {
        let path = try makeCapturedDatabase(self)
        // A new column, and list no longer synced.
        try sqlite3(
            path,
            """
            ALTER TABLE item ADD COLUMN note TEXT;
            DELETE FROM shipyard_sync WHERE table_name = 'list';
            """)
        let connection = try Connection(path: path)
        XCTAssertFalse(try SyncCapture.isCurrent(on: connection))
        try SyncCapture.refresh(on: connection)
        XCTAssertTrue(try SyncCapture.isCurrent(on: connection))
        connection.close()
        try sqlite3(
            path,
            """
            INSERT INTO list VALUES ('L1', 'a', NULL);
            INSERT INTO item (id, list_id) VALUES ('I1', 'L1');
            DELETE FROM shipyard_sync_outbox;
            UPDATE item SET note = 'n';
            """)
        XCTAssertEqual(try outboxLines(path), ["item|I1|note|2|"])
        // Nothing declared any more: the capture's triggers go, the queue stays.
        try sqlite3(path, "DELETE FROM shipyard_sync;")
        let again = try Connection(path: path)
        try SyncCapture.refresh(on: again)
        again.close()
        XCTAssertEqual(try sqlite3(path, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger';"), "0\n")
        XCTAssertEqual(try outboxLines(path), ["item|I1|note|2|"])
    }

    func testADatabaseThatNeverSyncedIsLeftAlone() throws {
        let path = try makeSyncDatabase(
            self,
            """
            CREATE TABLE t (a);
            CREATE TRIGGER shipyard_sync_mine AFTER INSERT ON t BEGIN SELECT 1; END;
            """)
        let version = try sqlite3(path, "PRAGMA schema_version;")
        let connection = try Connection(path: path)
        try SyncCapture.refresh(on: connection)
        connection.close()
        XCTAssertEqual(try sqlite3(path, "PRAGMA schema_version;"), version)
    }

    /// Odd names: quotes, spaces, a keyword; a table and column pair whose trigger names collide.
    func testOddNamesAreQuoted() throws {
        let path = try makeCapturedDatabase(
            self,
            #"""
            CREATE TABLE "my ""table""" ("key" TEXT PRIMARY KEY NOT NULL, "select" TEXT, "a b" INTEGER);
            CREATE TABLE a (id TEXT PRIMARY KEY NOT NULL, b_c TEXT);
            CREATE TABLE a_b (id TEXT PRIMARY KEY NOT NULL, c TEXT);
            CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
            INSERT INTO shipyard_sync VALUES ('my "table"', NULL, 'last-edit-wins'), ('my "table"', 'a b', 'counter'),
                ('a', NULL, 'last-edit-wins'), ('a_b', NULL, 'last-edit-wins');
            """#)
        try sqlite3(
            path,
            #"""
            INSERT INTO "my ""table""" VALUES ('k''1', 'x', 3);
            UPDATE "my ""table""" SET "select" = 'y', "a b" = 1;
            INSERT INTO a VALUES ('1', 'x'); INSERT INTO a_b VALUES ('1', 'x');
            UPDATE a SET b_c = 'y'; UPDATE a_b SET c = 'y';
            """#)
        XCTAssertEqual(
            try outboxLines(path),
            [
                "a|1||1|", "a|1|b_c|2|", "a_b|1||1|", "a_b|1|c|2|", "my \"table\"|k'1||1|", "my \"table\"|k'1|a b|3|1",
                "my \"table\"|k'1|select|2|",
            ])
    }
}
