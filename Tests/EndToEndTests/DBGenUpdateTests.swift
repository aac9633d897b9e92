import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen update` and `dbgen attach --updates`, end to end.
final class DBGenUpdateTests: XCTestCase {
    private func fixture() throws -> (dir: URL, bundled: String, updates: String, user: String) {
        let dir = try TemporaryDirectory("update cli 'x'", removedAfter: self).url
        let bundled = dir.appendingPathComponent("food.sqlite").path
        _ = try Oracle.sqlite3Script(
            bundled,
            "CREATE TABLE food(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO food VALUES (1, 'apple'); PRAGMA user_version = 1;"
        )
        return (
            dir, bundled, dir.appendingPathComponent("Updates").path, dir.appendingPathComponent("user.sqlite").path
        )
    }

    private func version(_ dir: URL, from: String, _ name: String, _ script: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: from, toPath: path)
        _ = try Oracle.sqlite3Script(path, script)
        return path
    }

    func testDatabaseThenPatchThenAttach() throws {
        let (dir, bundled, updates, user) = try fixture()
        let v2 = try version(
            dir, from: bundled, "v2.sqlite", "INSERT INTO food VALUES (2, 'pear'); PRAGMA user_version = 2;")
        let v3 = try version(
            dir, from: v2, "v3.sqlite", "UPDATE food SET name = 'Pear' WHERE id = 2; PRAGMA user_version = 3;")
        let install = try BuiltProducts.run(
            "dbgen", ["update", "--bundled", bundled, "--updates", updates, "--database", v2])
        XCTAssertEqual(install.status, 0, install.stderrText)
        XCTAssertEqual(install.stdoutText, "2\n")
        let patch = dir.appendingPathComponent("2-3.sql")
        try BuiltProducts.run("dbgen", ["diff", v2, v3]).stdout.write(to: patch)
        let hash = try Oracle.python3.output([
            "-c", "import hashlib,sys;print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", patch.path,
        ])
        .trimmingCharacters(in: .whitespacesAndNewlines)
        let patched = try BuiltProducts.run(
            "dbgen", ["update", "--bundled", bundled, "--updates", updates, "--patch", patch.path, "--sha256", hash])
        XCTAssertEqual(patched.status, 0, patched.stderrText)
        XCTAssertEqual(patched.stdoutText, "3\n")
        let attach = try BuiltProducts.run(
            "dbgen",
            [
                "attach", "--bundled", bundled, "--updates", updates, "--user", user,
                "SELECT group_concat(name) FROM bundle.food", "PRAGMA bundle.user_version",
            ])
        XCTAssertEqual(attach.stdoutText, "apple,Pear\n3\n", attach.stderrText)
        let write = try BuiltProducts.run(
            "dbgen", ["attach", "--bundled", bundled, "--updates", updates, "--user", user, "DELETE FROM bundle.food"])
        XCTAssertEqual(write.status, 1)
        XCTAssertTrue(write.stderrText.contains("read-only"), write.stderrText)
        let without = try BuiltProducts.run(
            "dbgen", ["attach", "--bundled", bundled, "--user", user, "PRAGMA bundle.user_version"])
        XCTAssertEqual(without.stdoutText, "1\n")
    }

    func testBadInputsExit1NamingTheFileAndChangeNothing() throws {
        let (dir, bundled, updates, _) = try fixture()
        let v2 = try version(dir, from: bundled, "v2.sqlite", "PRAGMA user_version = 2;")
        XCTAssertEqual(
            try BuiltProducts.run("dbgen", ["update", "--bundled", bundled, "--updates", updates, "--database", v2])
                .status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: updates + "/food.sqlite"))
        let bundledBefore = try Data(contentsOf: URL(fileURLWithPath: bundled))
        let other2 = try version(
            dir, from: bundled, "other2.sqlite", "INSERT INTO food VALUES (7, 'plum'); PRAGMA user_version = 2;")
        let escape = dir.appendingPathComponent("escape.sql")
        try Data("PRAGMA user_version = 5;\nATTACH DATABASE 'other.sqlite' AS o;\n".utf8).write(to: escape)
        let cases: [([String], String, String)] = [
            (["--database", dir.appendingPathComponent("nope.sqlite").path], "nope.sqlite: error: no such file", ""),
            (["--database", other2], "other2.sqlite: error: user_version 2 is not newer than 2", ""),
            (
                ["--database", v2, "--sha256", String(repeating: "0", count: 64)], "v2.sqlite: error: SHA-256 mismatch",
                ""
            ),
            (["--patch", escape.path], "escape.sql:2: error: refused: ATTACH", ""),
        ]
        for (arguments, message, _) in cases {
            let result = try BuiltProducts.run(
                "dbgen", ["update", "--bundled", bundled, "--updates", updates] + arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderrText.contains(message), "\(arguments): \(result.stderrText)")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: updates).sorted(),
                [".food.sqlite.content", "food.sqlite"])
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: updates + "/food.sqlite")), before)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: bundled)), bundledBefore)
        }
        let noBundle = dir.appendingPathComponent("gone.sqlite").path
        let missingBundled = try BuiltProducts.run(
            "dbgen", ["update", "--bundled", noBundle, "--updates", updates, "--database", v2])
        XCTAssertEqual(missingBundled.status, 1)
        XCTAssertEqual(missingBundled.stderrText, "\(noBundle): error: no such file\n")
        let usage = try BuiltProducts.run("dbgen", ["update", "--bundled", bundled, "--updates", updates])
        XCTAssertEqual(usage.status, 64, "neither --database nor --patch is a usage error")
    }

    /// A patch controls no transaction however it writes the statement (here hidden from a
    /// reading of the text by comments ending in CRLF, CR or `*/`): undoing or savepoints exit 1
    /// naming the file and the line, with the updates directory as it was; its own BEGIN and
    /// COMMIT are skipped and it installs whole.
    func testAPatchControlsNoTransaction() throws {
        let (dir, bundled, updates, _) = try fixture()
        let v2 = try version(dir, from: bundled, "v2.sqlite", "PRAGMA user_version = 2;")
        XCTAssertEqual(
            try BuiltProducts.run("dbgen", ["update", "--bundled", bundled, "--updates", updates, "--database", v2])
                .status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: updates + "/food.sqlite"))
        let refused = [
            "-- note\r\nROLLBACK;", "/* note */ROLLBACK TO sp;", "-- note\r\nsavepoint sp;", "--\r\nRELEASE sp;",
        ]
        for (index, statement) in refused.enumerated() {
            let patch = dir.appendingPathComponent("refused-\(index).sql")
            try Data("INSERT INTO food VALUES (3, 'fig');\n\(statement)\nPRAGMA user_version = 3;\n".utf8).write(
                to: patch)
            let result = try BuiltProducts.run(
                "dbgen", ["update", "--bundled", bundled, "--updates", updates, "--patch", patch.path])
            XCTAssertEqual(result.status, 1, statement)
            XCTAssertTrue(
                result.stderrText.contains("\(patch.lastPathComponent):2: error: refused: "),
                "\(statement): \(result.stderrText)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: updates + "/food.sqlite")), before)
        }
        let skipped = dir.appendingPathComponent("skipped.sql")
        try Data(
            "-- x\r\nBEGIN;\nINSERT INTO food VALUES (3, 'fig');\n-- x\r\nCOMMIT;\n/**/end\r\n;\nPRAGMA user_version = 3;\n"
                .utf8
        ).write(to: skipped)
        let installed = try BuiltProducts.run(
            "dbgen", ["update", "--bundled", bundled, "--updates", updates, "--patch", skipped.path])
        XCTAssertEqual(installed.status, 0, installed.stderrText)
        XCTAssertEqual(installed.stdoutText, "3\n")
        XCTAssertEqual(
            try Oracle.sqlite3Script(updates + "/food.sqlite", "SELECT name FROM food WHERE id = 3;"), "fig\n")
    }

    /// A re-download: installing what is in effect again exits 0, prints the version, says so
    /// on stderr and changes nothing; the same for a patch.
    func testInstallingWhatIsInstalledSaysSoAndChangesNothing() throws {
        let (dir, bundled, updates, _) = try fixture()
        let v2 = try version(
            dir, from: bundled, "v2.sqlite", "INSERT INTO food VALUES (2, 'pear'); PRAGMA user_version = 2;")
        let patch = dir.appendingPathComponent("1-2.sql")
        try BuiltProducts.run("dbgen", ["diff", bundled, v2]).stdout.write(to: patch)
        for arguments in [["--patch", patch.path], ["--database", v2]] {
            XCTAssertEqual(
                try BuiltProducts.run("dbgen", ["update", "--bundled", bundled, "--updates", updates] + arguments)
                    .status, 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: updates + "/food.sqlite"))
            let again = try BuiltProducts.run(
                "dbgen", ["update", "--bundled", bundled, "--updates", updates] + arguments)
            XCTAssertEqual(again.status, 0, again.stderrText)
            XCTAssertEqual(again.stdoutText, "2\n")
            XCTAssertEqual(
                again.stderrText, "\(arguments[1]): note: already installed (user_version 2); nothing changed\n")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: updates + "/food.sqlite")), before)
            try FileManager.default.removeItem(atPath: updates)
        }
    }

    /// A patch made for another release is refused, naming the file and both versions.
    func testAPatchForAnotherBaseIsRefused() throws {
        let (dir, bundled, updates, _) = try fixture()
        let v2 = try version(
            dir, from: bundled, "v2.sqlite", "INSERT INTO food VALUES (2, 'pear'); PRAGMA user_version = 2;")
        let v3 = try version(dir, from: v2, "v3.sqlite", "PRAGMA user_version = 3;")
        let patch = dir.appendingPathComponent("2-3.sql")
        try BuiltProducts.run("dbgen", ["diff", v2, v3]).stdout.write(to: patch)
        let result = try BuiltProducts.run(
            "dbgen", ["update", "--bundled", bundled, "--updates", updates, "--patch", patch.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderrText.hasPrefix(
                "\(patch.path): error: patch from user_version 2 to 3 is for another database: the database in effect is user_version 1 (\(bundled))"
            ), result.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: updates))
    }
}
