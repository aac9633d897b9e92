import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen attach`, end to end: the built executable against files made and read back by
/// the sqlite3 shell, with python3's hashlib for the bundled file's bytes.
final class AttachCommandTests: XCTestCase {
    /// A directory with `database.sqlite` (shipped) and `user-template.sqlite`, made by sqlite3.
    private func makeFixture(in directory: URL? = nil) throws -> (
        dir: URL, bundled: String, template: String, user: String
    ) {
        let dir = try directory ?? TemporaryDirectory("attach", removedAfter: self).url
        let bundled = dir.appendingPathComponent("database.sqlite").path
        let template = dir.appendingPathComponent("user-template.sqlite").path
        let user = dir.appendingPathComponent("user.sqlite").path
        try sqlite(
            bundled,
            """
            CREATE TABLE food ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);
            INSERT INTO food VALUES (1, 10, 'Apple', 'fruit'), (2, 20, 'Bread', NULL), (3, 10, 'Pi', 3.14159);
            PRAGMA user_version = 7;
            """)
        try sqlite(
            template,
            """
            CREATE TABLE user_food ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);
            INSERT INTO user_food VALUES (1000, 99, 'Template soup', x'00ff'), (1001, 98, 'Bytes', x'41ff42'), (1002, NULL, 'ab' || char(0) || 'cd', -0.5);
            PRAGMA user_version = 1;
            """)
        return (dir, bundled, template, user)
    }

    @discardableResult
    private func sqlite(_ path: String, _ script: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let result = try Oracle.sqlite3.run(["-batch", "-bail", path], stdin: script)
        XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
        return result.stdoutText
    }

    private func sha256(_ path: String) throws -> String {
        let result = try Oracle.python3.run([
            "-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", path,
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText
    }

    func testFirstLaunchAndQueryPrintsRowsLikeSqlite3() throws {
        let f = try makeFixture()
        let query =
            "SELECT pk, name, desc FROM bundle.food UNION ALL SELECT pk, name, desc FROM main.user_food ORDER BY pk"
        let result = try BuiltProducts.run(
            "dbgen",
            [
                "attach", "--bundled", f.bundled, "--user", f.user, "--template", f.template,
                "INSERT INTO user_food (pk, name, desc) VALUES (2000, 'Mine', NULL)", query,
                "SELECT count(*) FROM food",
            ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stderrText, "")
        // Oracle: sqlite3's list mode over the same two files.
        let expected = try sqlite(f.user, "ATTACH '\(f.bundled)' AS bundle;\n\(query);\nSELECT count(*) FROM food;\n")
        XCTAssertEqual(result.stdoutText, expected)
        XCTAssertTrue(result.stdoutText.contains("2000|Mine|\n"), result.stdoutText)
        // The user file was created from the template and holds the new row.
        XCTAssertEqual(
            try sqlite(f.user, "PRAGMA user_version; SELECT name FROM user_food ORDER BY pk;"),
            "1\nTemplate soup\nBytes\nab\nMine\n")
    }

    func testCustomNameAndNoTemplate() throws {
        let f = try makeFixture()
        let result = try BuiltProducts.run(
            "dbgen",
            [
                "attach", "--bundled", f.bundled, "--user", f.user, "--as", "shipped",
                "SELECT name FROM pragma_database_list ORDER BY seq", "SELECT count(*) FROM main.sqlite_schema",
            ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "main\nshipped\n0\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.user))
    }

    func testWritesIntoTheBundleFailAsReadOnlyAndBytesStay() throws {
        let f = try makeFixture()
        let hashBefore = try sha256(f.bundled)
        let writes = [
            "INSERT INTO bundle.food (pk, name) VALUES (9, 'x')",
            "UPDATE bundle.food SET name = 'y'",
            "DELETE FROM bundle.food",
            "DROP TABLE bundle.food",
            "CREATE TABLE bundle.x (a)",
            "CREATE INDEX bundle.idx ON food (name)",
            "PRAGMA bundle.user_version = 99",
        ]
        for sql in writes {
            let result = try BuiltProducts.run(
                "dbgen",
                [
                    "attach", "--bundled", f.bundled, "--user", f.user, "--template", f.template, sql,
                ])
            XCTAssertEqual(result.status, 1, sql)
            XCTAssertTrue(result.stderrText.hasPrefix("dbgen: error: "), result.stderrText)
            XCTAssertTrue(result.stderrText.contains("read-only"), result.stderrText)
            XCTAssertTrue(result.stderrText.contains(sql), result.stderrText)
        }
        XCTAssertEqual(try sha256(f.bundled), hashBefore)
        XCTAssertEqual(try sqlite(f.bundled, "PRAGMA user_version; SELECT count(*) FROM food;"), "7\n3\n")
    }

    func testMissingAndCorruptBundles() throws {
        let f = try makeFixture()
        let missing = f.dir.appendingPathComponent("missing.sqlite").path
        var result = try BuiltProducts.run("dbgen", ["attach", "--bundled", missing, "--user", f.user, "SELECT 1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdoutText, "")
        XCTAssertEqual(result.stderrText, "dbgen: error: \(missing): bundled database not found\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))

        let text = f.dir.appendingPathComponent("text.sqlite")
        try Data("just some text\n".utf8).write(to: text)
        let random = f.dir.appendingPathComponent("random.sqlite")
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: random)
        for path in [text.path, random.path] {
            result = try BuiltProducts.run("dbgen", ["attach", "--bundled", path, "--user", f.user, "SELECT 1"])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderrText.hasPrefix("dbgen: error: \(path): "), result.stderrText)
            XCTAssertTrue(result.stderrText.contains("not a SQLite database"), result.stderrText)
        }
    }

    func testMissingTemplateAndSQLErrors() throws {
        let f = try makeFixture()
        let missing = f.dir.appendingPathComponent("nope.sqlite").path
        var result = try BuiltProducts.run(
            "dbgen", ["attach", "--bundled", f.bundled, "--user", f.user, "--template", missing])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderrText.hasPrefix("dbgen: error: ") && result.stderrText.contains("template not found"),
            result.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.user))

        result = try BuiltProducts.run(
            "dbgen",
            ["attach", "--bundled", f.bundled, "--user", f.user, "SELECT 1", "SELECT * FROM nowhere", "SELECT 2"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdoutText, "1\n", "statements before the error ran, later ones did not")
        XCTAssertTrue(result.stderrText.contains("no such table: nowhere"), result.stderrText)
    }

    func testUsageErrorsExit64AndHelpHasAnExample() throws {
        let f = try makeFixture()
        for arguments in [
            ["attach", "--user", f.user], ["attach", "--bundled", f.bundled],
            ["attach", "--bundled", f.bundled, "--user", f.user, "--as", "main"],
            ["attach", "--bundled", f.bundled, "--user", f.user, "--as", "temp"],
            ["attach", "--bundled", f.bundled, "--user", f.user, "--as", "x\"; DROP TABLE y; --"],
        ] {
            let result = try BuiltProducts.run("dbgen", arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderrText)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.user))
        let help = try BuiltProducts.run("dbgen", ["attach", "--help"])
        XCTAssertEqual(help.status, 0)
        for needle in ["--bundled", "--user", "--template", "--as", "Example", "dbgen attach --bundled"] {
            XCTAssertTrue(help.stdoutText.contains(needle), needle)
        }
    }

    func testHostilePaths() throws {
        let root = try TemporaryDirectory("attach", removedAfter: self).url
        for component in ["sp ace", "q'uo\"te", "x?mode=rwc", "h#sh", "pc%20%", "ñandú 食"] {
            let dir = root.appendingPathComponent(component)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let f = try makeFixture(in: dir)
            let hash = try sha256(f.bundled)
            let result = try BuiltProducts.run(
                "dbgen",
                [
                    "attach", "--bundled", f.bundled, "--user", f.user, "--template", f.template,
                    "SELECT file FROM pragma_database_list WHERE name = 'bundle'", "SELECT count(*) FROM food",
                ])
            XCTAssertEqual(result.status, 0, "\(component): \(result.stderrText)")
            XCTAssertEqual(result.stdoutText, "\(f.bundled)\n3\n", component)
            XCTAssertEqual(try sha256(f.bundled), hash)
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                ["database.sqlite", "user-template.sqlite", "user.sqlite"], component)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).count, 6, "no stray files")
    }

    func testFiveConcurrentFirstLaunchProcesses() throws {
        let f = try makeFixture()
        let executable = BuiltProducts.path("dbgen")
        var processes: [(Process, Pipe)] = []
        for n in 0..<5 {
            let errors = Pipe()
            let process = try ProcessRunner.start(
                executable,
                [
                    "attach", "--bundled", f.bundled, "--user", f.user, "--template", f.template,
                    "CREATE TABLE IF NOT EXISTS launch (n INTEGER)",
                    "INSERT INTO launch VALUES (\(n))", "SELECT count(*) FROM user_food",
                ], errors: errors)
            processes.append((process, errors))
        }
        for (process, errors) in processes {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, message)
        }
        XCTAssertEqual(try sqlite(f.user, "PRAGMA integrity_check; SELECT count(*) FROM launch;"), "ok\n5\n")
        XCTAssertEqual(
            try sqlite(f.user, "SELECT * FROM user_food;"), try sqlite(f.template, "SELECT * FROM user_food;"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: f.dir.path).sorted(),
            ["database.sqlite", "user-template.sqlite", "user.sqlite"])
    }
}
