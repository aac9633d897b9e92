import Foundation
import XCTest

/// The completion table gives the sqlite3 shell's candidates, in its order.
final class FileCompletionTests: XCTestCase {
    private let schema = """
        CREATE TABLE tx(abc, abd, "Mixed Case" TEXT, g AS (abc + 1));
        CREATE TABLE "táble ünïcødé"(ident INTEGER PRIMARY KEY, value) WITHOUT ROWID;
        CREATE VIEW vw AS SELECT abc AS view_col FROM tx;
        CREATE INDEX tx_abc ON tx(abc);
        CREATE TRIGGER tr_ins AFTER INSERT ON tx BEGIN SELECT 1; END;
        CREATE TEMP TABLE tmp_t(temp_col);
        ATTACH ':memory:' AS aux_db;
        CREATE TABLE aux_db.aux_t(aux_col, abc);
        CREATE VIRTUAL TABLE zz USING zipfile('nowhere.zip');
        """

    func testAllCandidatesMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        let outcome = try assertSameAsShell("SELECT rowid, candidate, phase FROM completion('');", in: dir)
        XCTAssertGreaterThan(outcome.rows.count, 100)
        try assertSameAsShell("SELECT count(*) FROM completion;", in: dir)
        try assertSameAsShell(schema + "SELECT rowid, candidate, phase FROM completion;", in: dir)
    }

    func testPrefixesMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        for prefix in [
            "ab", "AB", "s", "sel", "t", "TÁ", "tá", "x", "aux", "view", "main", "temp", "zz", "n", "_", "'",
        ] {
            try assertSameAsShell(
                schema + "SELECT rowid, candidate, quote(prefix), phase FROM completion('\(prefix)');", in: dir)
        }
    }

    func testWholeLineMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        for line in [
            "SELECT * FROM t", "select ab", "SELECT tx.", "INSERT INTO aux_db.au", "", "SELECT x_9_a", "update \"táble",
        ] {
            try assertSameAsShell(
                schema + "SELECT candidate, quote(prefix), quote(wholeline), phase FROM completion(NULL, '\(line)');",
                in: dir)
        }
        try assertSameAsShell(
            schema + "SELECT candidate, quote(prefix), quote(wholeline) FROM completion('ab', 'SELECT * FROM t');",
            in: dir)
        try assertSameAsShell(schema + "SELECT candidate FROM completion WHERE wholeline = 'select ta';", in: dir)
    }

    func testSuggestedUsageMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        try assertSameAsShell(
            schema + "SELECT DISTINCT candidate COLLATE nocase FROM completion('a', 'select a') ORDER BY 1;", in: dir)
        try assertSameAsShell("SELECT * FROM pragma_table_xinfo('completion');", in: dir)
    }
}
