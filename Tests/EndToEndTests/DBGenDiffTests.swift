import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen diff`, end to end: the patch goes through the sqlite3 shell, the summary is
/// sqldiff's, errors name the file and exit 1.
final class DBGenDiffTests: XCTestCase {
    private func pair() throws -> (dir: URL, old: String, new: String) {
        let dir = try TemporaryDirectory("diff cli", removedAfter: self).url
        let old = dir.appendingPathComponent("old db.sqlite").path, new = dir.appendingPathComponent("new.sqlite").path
        _ = try Oracle.sqlite3Script(
            old,
            "CREATE TABLE food(id INTEGER PRIMARY KEY, name TEXT, kcal REAL); INSERT INTO food VALUES (1, 'apple', 52.0), (2, 'pear', 57.0), (3, 'fig', 74.0); PRAGMA user_version = 1;"
        )
        _ = try Oracle.sqlite3Script(
            new,
            "CREATE TABLE food(id INTEGER PRIMARY KEY, name TEXT, kcal REAL); INSERT INTO food VALUES (1, 'apple', 256.09000000000003), (3, 'fig', 74.0), (4, 'kiwi', 61.0); CREATE INDEX food_name ON food(name); PRAGMA user_version = 2;"
        )
        return (dir, old, new)
    }

    func testPatchThroughTheShellGivesNew() throws {
        let (dir, old, new) = try pair()
        let result = try BuiltProducts.run("dbgen", ["diff", old, new])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stderrText, "")
        let copy = dir.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        _ = try Oracle.sqlite3Script(copy, result.stdoutText)
        XCTAssertEqual(try DatabaseContent.dump(copy), try DatabaseContent.dump(new))
        XCTAssertEqual(
            try BuiltProducts.run("dbgen", ["diff", old, new]).stdout, result.stdout, "same pair, same bytes")
        let same = try BuiltProducts.run("dbgen", ["diff", new, new])
        XCTAssertEqual(same.status, 0)
        XCTAssertEqual(same.stdoutText, "")
    }

    /// The patch names its base and target by user_version and SHA-256 (python3's hashlib, the
    /// oracle), in comments the sqlite3 shell skips.
    func testThePatchHeaderNamesBaseAndTarget() throws {
        let (_, old, new) = try pair()
        func sha256(_ path: String) throws -> String {
            try Oracle.python3.output([
                "-c", "import hashlib,sys;print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", path,
            ])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let patch = try BuiltProducts.run("dbgen", ["diff", old, new]).stdoutText
        XCTAssertTrue(
            patch.hasPrefix(
                "-- dbgen diff base: user_version=1 sha256=\(try sha256(old))\n-- dbgen diff target: user_version=2 sha256=\(try sha256(new))\nBEGIN TRANSACTION;\n"
            ), patch)
    }

    /// NEW's user_version not greater than OLD's: the patch would not install, so it is refused
    /// (exit 1, nothing on stdout) unless --force; equal contents still give an empty patch.
    func testANewThatIsNotNewerIsRefusedUnlessForced() throws {
        let (_, old, new) = try pair()
        let backwards = try BuiltProducts.run("dbgen", ["diff", new, old])
        XCTAssertEqual(backwards.status, 1)
        XCTAssertEqual(backwards.stdoutText, "")
        XCTAssertEqual(
            backwards.stderrText,
            "\(old): error: user_version 1 is not greater than 2, that of \(new): the patch would not install (give every release a greater PRAGMA user_version, or --force)\n"
        )
        let forced = try BuiltProducts.run("dbgen", ["diff", "--force", new, old])
        XCTAssertEqual(forced.status, 0, forced.stderrText)
        XCTAssertTrue(forced.stdoutText.contains("PRAGMA user_version=1;"), forced.stdoutText)
        XCTAssertEqual(
            try BuiltProducts.run("dbgen", ["diff", "--summary", new, old]).status, 0, "the summary installs nothing")
    }

    func testSummaryAndTableAreSqldiffs() throws {
        let (_, old, new) = try pair()
        let ours = try BuiltProducts.run("dbgen", ["diff", "--summary", old, new])
        XCTAssertEqual(ours.status, 0, ours.stderrText)
        XCTAssertEqual(ours.stdoutText, try Oracle.sqldiff.output(["--summary", old, new]))
        XCTAssertEqual(ours.stdoutText, "food: 1 changes, 1 inserts, 1 deletes, 1 unchanged\n")
        let table = try BuiltProducts.run("dbgen", ["diff", "--table", "food", old, new])
        XCTAssertFalse(table.stdoutText.contains("user_version"), table.stdoutText)
        XCTAssertTrue(table.stdoutText.contains("CREATE INDEX food_name"), table.stdoutText)
    }

    func testChangesetFile() throws {
        let (dir, old, new) = try pair()
        let changeset = dir.appendingPathComponent("food.changeset").path
        // A schema difference (the new index) is an error naming it.
        let refused = try BuiltProducts.run("dbgen", ["diff", "--changeset", changeset, old, new])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderrText.contains("food_name"), refused.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: changeset))
        _ = try Oracle.sqlite3Script(old, "CREATE INDEX food_name ON food(name);")
        let result = try BuiltProducts.run("dbgen", ["diff", "--changeset", changeset, old, new])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: changeset)).count, 0)
    }

    func testErrorsNameTheFileAndExit1() throws {
        let (dir, old, _) = try pair()
        let missing = dir.appendingPathComponent("missing.sqlite").path
        let result = try BuiltProducts.run("dbgen", ["diff", old, missing])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderrText, "\(missing): error: no such file\n")
        let text = dir.appendingPathComponent("notes.txt")
        try Data(String(repeating: "hello\n", count: 200).utf8).write(to: text)
        let notDatabase = try BuiltProducts.run("dbgen", ["diff", text.path, old])
        XCTAssertEqual(notDatabase.status, 1)
        XCTAssertTrue(
            notDatabase.stderrText.hasPrefix("\(text.path): error: not a SQLite database"), notDatabase.stderrText)
    }
}
