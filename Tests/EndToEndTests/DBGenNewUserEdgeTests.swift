import Foundation
import ShipyardTestSupport
import XCTest

/// What a new user following the README meets first: its dbgen examples run as written, and
/// each error says plainly what happened.
final class DBGenNewUserEdgeTests: XCTestCase {
    private static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The README's schema (the block starting `-- schema/schema.txt`) and its `dbgen diff` and
    /// `dbgen update` commands, word for word: release 4 is that schema with user_version 4,
    /// release 5 the schema itself over one more row; the patch installs as the app would.
    func testTheReadmeDiffAndUpdateExamplesRunAsWritten() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let schemaStart = try XCTUnwrap(readme.range(of: "```\n-- schema/schema.txt\n"))
        let schemaEnd = try XCTUnwrap(readme.range(of: "```", range: schemaStart.upperBound..<readme.endIndex))
        let schema = "-- schema/schema.txt\n" + readme[schemaStart.upperBound..<schemaEnd.lowerBound]
        XCTAssertTrue(schema.contains("PRAGMA user_version = 5;"), schema)
        let lines = readme.components(separatedBy: "\n")
        let diff = try XCTUnwrap(lines.first { $0.hasPrefix("dbgen diff ") })
        let updateStart = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("dbgen update ") })
        var update = lines[updateStart]
        var next = updateStart
        while update.hasSuffix("\\") {
            next += 1
            update += "\n" + lines[next]
        }
        let dir = try TemporaryDirectory("readme-dbgen", removedAfter: self).url
        try DBGenTestSupport.write(
            schema.replacingOccurrences(of: "user_version = 5", with: "user_version = 4"),
            to: "schema/schema.txt", in: dir)
        try DBGenTestSupport.write("1|1|Apple|red\n2|1|Banana|yellow\n", to: "schema/food.csv", in: dir)
        var result = try DBGenTestSupport.dbgen(["schema/schema.txt", "-o", "food-v4.sqlite"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)
        try DBGenTestSupport.write(schema, to: "schema/schema.txt", in: dir)
        try DBGenTestSupport.write(
            "1|1|Apple|red\n2|1|Banana|yellow\n3|2|Cherry|dark\n", to: "schema/food.csv", in: dir)
        result = try DBGenTestSupport.dbgen(["schema/schema.txt", "-o", "food-v5.sqlite"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)

        let path = BuiltProducts.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let updates = dir.appendingPathComponent("updates")
        result = try ProcessRunner.run(
            "/bin/sh", ["-ec", diff + "\n" + update], in: dir,
            environment: ["PATH": path, "DIR": updates.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "5\n", "the update prints the user_version installed")
        let installed = updates.appendingPathComponent("food-v4.sqlite")
        XCTAssertEqual(
            try DBGenTestSupport.content(of: installed),
            try DBGenTestSupport.content(of: dir.appendingPathComponent("food-v5.sqlite")))
    }

    /// A write into the bundled database is refused with one message that says read-only once.
    func testAWriteIntoTheBundledDatabaseSaysReadOnlyOnce() throws {
        let dir = try TemporaryDirectory("bundle-write", removedAfter: self).url
        let bundled = dir.appendingPathComponent("bundle.sqlite").path
        _ = try Oracle.sqlite3.output([bundled, "CREATE TABLE food(x); INSERT INTO food VALUES (1);"])
        let result = try DBGenTestSupport.dbgen(
            [
                "attach", "--bundled", bundled, "--user", "user.sqlite",
                "INSERT INTO bundle.food VALUES (2)",
            ], in: dir)
        XCTAssertEqual(result.status, 1)
        let text = result.stderrText.lowercased()
        let mentions =
            text.components(separatedBy: "readonly").count - 1 + text.components(separatedBy: "read-only").count - 1
        XCTAssertEqual(mentions, 1, result.stderrText)
        XCTAssertEqual(result.stderrText.split(separator: "\n").count, 1, result.stderrText)
    }

    /// A directory given as the schema says why it cannot be opened.
    func testADirectoryAsTheScriptSaysItIsADirectory() throws {
        let dir = try TemporaryDirectory("script-directory", removedAfter: self).url
        try DBGenTestSupport.write("CREATE TABLE t(x);\n", to: "schema/schema.txt", in: dir)
        let result = try DBGenTestSupport.dbgen(["schema/"], in: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("cannot open script \"schema/\": is a directory"), result.stderrText)
    }

    /// Under --strict a short row is an error and nothing is written: the message does not say
    /// the rest is filled with NULL.
    func testStrictSaysWhatHappensUnderStrict() throws {
        let dir = try TemporaryDirectory("strict-message", removedAfter: self).url
        try DBGenTestSupport.write("CREATE TABLE t(a, b);\n.import --csv data.csv t\n", to: "schema.txt", in: dir)
        try DBGenTestSupport.write("1,2\n3\n", to: "data.csv", in: dir)
        let strict = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite", "--strict"], in: dir)
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(
            strict.stderrText,
            "data.csv:2: error: expected 2 columns but found 1 (an error under --strict: "
                + "nothing is written, the output is left as it was)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sqlite").path))
        // Without --strict the warning says what the build does.
        let lenient = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite"], in: dir)
        XCTAssertEqual(lenient.status, 0, lenient.stderrText)
        XCTAssertTrue(lenient.stderrText.contains("found 1 - filling the rest with NULL"), lenient.stderrText)
    }

    /// `dbgen update` creates its updates directory but not a missing parent, as `dbgen build`
    /// writes only into an existing directory; `--help` says so.
    func testUpdateCreatesItsDirectoryButNotAMissingParent() throws {
        let dir = try TemporaryDirectory("update-parent", removedAfter: self).url
        _ = try Oracle.sqlite3.output([
            dir.appendingPathComponent("food.sqlite").path,
            "CREATE TABLE food(x); PRAGMA user_version = 1;",
        ])
        _ = try Oracle.sqlite3.output([
            dir.appendingPathComponent("food-v2.sqlite").path,
            "CREATE TABLE food(x); INSERT INTO food VALUES (2); PRAGMA user_version = 2;",
        ])
        var result = try DBGenTestSupport.dbgen(
            [
                "update", "--bundled", "food.sqlite", "--updates", "no/such/updates",
                "--database", "food-v2.sqlite",
            ], in: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderrText, "dbgen: error: cannot create \"no/such/updates\": directory \"no/such\" does not exist\n"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("no").path))
        result = try DBGenTestSupport.dbgen(
            [
                "update", "--bundled", "food.sqlite", "--updates", "updates",
                "--database", "food-v2.sqlite",
            ], in: dir)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("updates/food.sqlite").path))
        let help = try DBGenTestSupport.dbgen(["update", "--help"], in: dir).stdoutText
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(words.contains("created if missing; its parent must exist"), help)
    }
}
