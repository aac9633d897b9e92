import DBGenKit
import Foundation
import ShipyardTestSupport
import XCTest

/// dbgen diff against sqldiff 3.40.1 (the oracle) and against the new database itself.
final class DiffOracleTests: XCTestCase {
    /// Tables sqldiff handles (its patch is run without -bail: its INSERTs into `items` fire
    /// the trigger that writes `log`, which sqldiff does not foresee).
    /// `names` (a NOCASE key) is left out: sqldiff compares with the column's collation, so it
    /// misses a change of case ('Ab' → 'AB'); dbgen's result is still checked against NEW.
    let sqldiffTables = ["items", "nokey", "pairs", "odd \"t\" 'x'"]

    func testPatchLeavesTheSameRowsAsSqldiffsAndNewsContentOnSeededPairs() throws {
        for seed: UInt64 in 1...4 {
            let dir = try TemporaryDirectory("diff oracle '\(seed)'", removedAfter: self)
            let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
            var generator = DiffPairGenerator(seed: seed, values: .sqldiffSafe)
            try generator.makePair(old: old, new: new, rows: 60, schemaChanges: false)
            let ours = try DatabaseContent.dump(
                DiffTestSupport.applied(DiffTestSupport.patch(old, new), to: old, copy: dir.url("ours.sqlite").path))
            let theirs = try DatabaseContent.dump(
                DiffTestSupport.applied(
                    DiffTestSupport.sqldiffPatch(old, new), to: old, copy: dir.url("theirs.sqlite").path, bail: false))
            let expected = try DatabaseContent.dump(new)
            assertSameContent(ours, expected, "seed \(seed): patched OLD vs NEW")
            for table in sqldiffTables {
                let section = DiffTestSupport.tableSection(expected, table)
                XCTAssertFalse(section.isEmpty, "seed \(seed): \(table) is empty")
                assertSameContent(
                    DiffTestSupport.tableSection(theirs, table), section,
                    "seed \(seed): sqldiff's own result for \(table)")
                assertSameContent(DiffTestSupport.tableSection(ours, table), section, "seed \(seed): \(table)")
            }
        }
    }

    func testSummaryIsSqldiffsSummary() throws {
        for (seed, schemaChanges) in [(UInt64(5), false), (6, true), (7, false)] {
            let dir = try TemporaryDirectory("diff summary", removedAfter: self)
            let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
            var generator = DiffPairGenerator(seed: seed, values: .sqldiffSafe)
            try generator.makePair(old: old, new: new, rows: 50, schemaChanges: schemaChanges)
            XCTAssertEqual(
                try DatabaseDiff(oldPath: old, newPath: new).summary(),
                try DiffTestSupport.sqldiffPatch(old, new, summary: true), "seed \(seed)")
            XCTAssertEqual(
                try DatabaseDiff(oldPath: old, newPath: new, table: "items").summary(),
                try Oracle.sqldiff.output(["--summary", "--table", "items", old, new]), "seed \(seed)")
        }
    }

    func testEdgeValuesAndSchemaChangesComeBackExactly() throws {
        for seed: UInt64 in 10...15 {
            let dir = try TemporaryDirectory("diff edge", removedAfter: self)
            let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
            var generator = DiffPairGenerator(seed: seed, values: .edgeCases)
            try generator.makePair(old: old, new: new, rows: 60, schemaChanges: seed % 2 == 0)
            let patch = try DiffTestSupport.patch(old, new)
            let patched = try DiffTestSupport.applied(patch, to: old, copy: dir.url("patched.sqlite").path)
            assertSameContent(try DatabaseContent.dump(patched), try DatabaseContent.dump(new), "seed \(seed)")
            XCTAssertEqual(
                try DiffTestSupport.patch(patched, new), "", "seed \(seed): patched vs NEW should not differ")
        }
    }

    func testSamePairGivesTheSameBytes() throws {
        let dir = try TemporaryDirectory("diff twice", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
        var generator = DiffPairGenerator(seed: 21, values: .edgeCases)
        try generator.makePair(old: old, new: new, rows: 80, schemaChanges: true)
        let first = try DiffTestSupport.patch(old, new)
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(try DiffTestSupport.patch(old, new), first)
        XCTAssertEqual(
            try DatabaseDiff(oldPath: old, newPath: new).summary(),
            try DatabaseDiff(oldPath: old, newPath: new).summary())
    }

    func testPatchIsProportionateToTheChange() throws {
        let dir = try TemporaryDirectory("diff size", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
        _ = try Oracle.sqlite3Script(
            old,
            """
            CREATE TABLE food(id INTEGER PRIMARY KEY, name TEXT, kcal REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO food SELECT i, 'food ' || i, i * 1.5 FROM n;
            """)
        try FileManager.default.copyItem(atPath: old, toPath: new)
        _ = try Oracle.sqlite3Script(
            new,
            "UPDATE food SET kcal = kcal + 0.25 WHERE id % 100 = 0; DELETE FROM food WHERE id % 1000 = 1; INSERT INTO food VALUES (30000, 'new', 1.0);"
        )
        let ours = try DiffTestSupport.patch(old, new), theirs = try DiffTestSupport.sqldiffPatch(old, new)
        XCTAssertLessThan(
            ours.utf8.count, theirs.utf8.count * 3 / 2 + 100,
            "patch \(ours.utf8.count) bytes, sqldiff's \(theirs.utf8.count)")
        // The header's two lines, BEGIN and COMMIT.
        XCTAssertEqual(ours.split(separator: "\n").count, theirs.split(separator: "\n").count + 4)
    }
}
