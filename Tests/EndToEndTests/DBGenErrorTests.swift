import Foundation
import ShipyardTestSupport
import XCTest

/// Where sqlite3 would report an error and carry on, dbgen stops: exit 1, a compiler-style
/// `PATH:LINE:COL: error: MESSAGE` naming the faulty file, and OUTPUT left byte-for-byte as it was.
final class DBGenErrorTests: XCTestCase {
    /// Builds a valid OUTPUT first, then runs the failing `files` and checks the contract.
    @discardableResult
    private func assertFails(
        _ files: [String: String], expectedPrefix: String, messageContains: String? = nil,
        arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) throws -> ProcessResult {
        let dir = try TemporaryDirectory("dbgen-errors", removedAfter: self).url
        try DBGenTestSupport.write(
            "CREATE TABLE previous (x);\nINSERT INTO previous VALUES (1);\n", to: "good.txt", in: dir)
        let good = try DBGenTestSupport.dbgen(["good.txt", "-o", "out.sqlite"], in: dir)
        XCTAssertEqual(good.status, 0, good.stderrText, file: file, line: line)
        let output = dir.appendingPathComponent("out.sqlite")
        let before = DBGenTestSupport.bytes(output)
        XCTAssertFalse(before.isEmpty, file: file, line: line)
        for (name, text) in files { try DBGenTestSupport.write(text, to: name, in: dir) }
        let result = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite"] + arguments, in: dir)
        XCTAssertEqual(result.status, 1, result.stderrText, file: file, line: line)
        XCTAssertTrue(
            result.stderrText.hasPrefix(expectedPrefix), "stderr: \(result.stderrText)", file: file, line: line)
        if let messageContains {
            XCTAssertTrue(
                result.stderrText.contains(messageContains), "stderr: \(result.stderrText)", file: file, line: line)
        }
        XCTAssertEqual(DBGenTestSupport.bytes(output), before, "OUTPUT must be untouched", file: file, line: line)
        XCTAssertEqual(
            try DBGenTestSupport.files(in: dir, prefix: ".out.sqlite.dbgen-").filter { !$0.hasSuffix("fingerprint") },
            [],
            "no temporary file is left behind", file: file, line: line)
        return result
    }

    func testSyntaxErrorMidFileNamesLineAndColumn() throws {
        let script = "CREATE TABLE a (x);\n\nCREATE TABLE b (\n  y,\n  z ,,\n);\nCREATE TABLE c (z);\n"
        try assertFails(["schema.txt": script], expectedPrefix: "schema.txt:5:6: error: near \",\": syntax error")
        // The oracle agrees on the line of the statement and the message.
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        let oracle = try Oracle.sqlite3.run(["-batch", dir.appendingPathComponent("x.db").path], stdin: script)
        XCTAssertTrue(oracle.stderrText.contains("near \",\": syntax error"), oracle.stderrText)
    }

    func testErrorOnIndentedLineWithUnicodeCountsCharacters() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE t (a);\n  INSERT INTO t VALUES ('é', nosuchfunc(1));\n"],
            expectedPrefix: "schema.txt:2:30: error: no such function: nosuchfunc")
    }

    func testRuntimeErrorPointsAtTheStatement() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE t (a UNIQUE);\nINSERT INTO t VALUES (1);\n   INSERT INTO t VALUES (1);\n"],
            expectedPrefix: "schema.txt:3:4: error: UNIQUE constraint failed: t.a")
    }

    func testErrorInSecondStatementOfALinePointsAtThatStatement() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x); INSERT INTO nosuch VALUES (1);\n"],
            expectedPrefix: "schema.txt:1:21: error: no such table: nosuch")
    }

    func testErrorInIncludedScriptNamesThatFile() throws {
        try assertFails(
            [
                "schema.txt": "CREATE TABLE a (x);\n.read sub/inner.txt\n",
                "sub/inner.txt": "-- inner\nINSERT INTO nosuch VALUES (1);\n",
            ], expectedPrefix: "sub/inner.txt:2:1: error: no such table: nosuch")
    }

    func testMissingIncludedScript() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x);\n.read missing.txt\n"],
            expectedPrefix: "schema.txt:2:1: error:", messageContains: "missing.txt")
    }

    func testRecursiveReadIsAnError() throws {
        try assertFails(
            [
                "schema.txt": "CREATE TABLE IF NOT EXISTS a (x);\n.read sub/loop.txt\n",
                "sub/loop.txt": ".read ../schema.txt\n",
            ],
            expectedPrefix: "sub/loop.txt:1:1: error: recursive .read")
    }

    func testMissingCSV() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x);\n\n.import --csv nothere.csv a\n"],
            expectedPrefix: "schema.txt:3:1: error:", messageContains: "nothere.csv")
    }

    func testUnknownDotCommand() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x);\n.frobnicate now\n"],
            expectedPrefix: "schema.txt:2:1: error: unknown", messageContains: ".frobnicate")
    }

    func testProgramsAndFileWritesAreRefused() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        let marker = dir.appendingPathComponent("ran").path
        for command in [
            ".shell touch \(marker)", ".system touch \(marker)", ".import \"|touch \(marker)\" t",
            ".read '|touch \(marker)'", ".output |touch \(marker)", ".once \(marker)",
        ] {
            try assertFails(
                ["schema.txt": "CREATE TABLE t (x);\n\(command)\n"],
                expectedPrefix: "schema.txt:2:1: error:", messageContains: "refus")
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker), command)
        }
    }

    func testUnterminatedStatementAtEndOfFile() throws {
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x);\nCREATE TRIGGER t AFTER INSERT ON a BEGIN\n  SELECT 1;\n"],
            expectedPrefix: "schema.txt:2:1: error: unterminated statement")
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x);\nINSERT INTO a VALUES ('open\n"],
            expectedPrefix: "schema.txt:2:", messageContains: "unterminated statement")
    }

    func testMissingSchemaIsAnError() throws {
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        let result = try DBGenTestSupport.dbgen(["nope.txt", "-o", "x.sqlite"], in: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("error:") && result.stderrText.contains("nope.txt"), result.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.sqlite").path))
    }

    func testStrictTurnsWarningsIntoErrors() throws {
        // A missing final semicolon: sqlite3 runs the statement; dbgen warns, and --strict fails.
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        try DBGenTestSupport.write("CREATE TABLE a (x);\nINSERT INTO a VALUES (1)\n", to: "schema.txt", in: dir)
        let lenient = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite"], in: dir)
        XCTAssertEqual(lenient.status, 0, lenient.stderrText)
        XCTAssertTrue(lenient.stderrText.contains("schema.txt:2:1: warning:"), lenient.stderrText)
        let quiet = try DBGenTestSupport.dbgen(["schema.txt", "-o", "q.sqlite", "--quiet"], in: dir)
        XCTAssertEqual(quiet.stderrText, "")
        try assertFails(
            ["schema.txt": "CREATE TABLE a (x);\nINSERT INTO a VALUES (1)\n"],
            expectedPrefix: "schema.txt:2:1: error:", arguments: ["--strict"])
    }

    func testImportErrorsNameTheCSVFileAndStrictFailsOnShortRows() throws {
        try assertFails(
            [
                "schema.txt": "CREATE TABLE t (a, b, c);\n.read sub/in.txt\n",
                "sub/in.txt": ".mode csv\n.import data.csv t\n",
                "sub/data.csv": "1,2,3\n4,\"open\n",
            ],
            expectedPrefix: "sub/data.csv:2: error:")
        let files = [
            "schema.txt": "CREATE TABLE t (a, b, c);\n.mode csv\n.import data.csv t\n",
            "data.csv": "1,2,3\n4,5\n",
        ]
        let dir = try TemporaryDirectory("dbgen", removedAfter: self).url
        for (name, text) in files { try DBGenTestSupport.write(text, to: name, in: dir) }
        let lenient = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite", "--json"], in: dir)
        XCTAssertEqual(lenient.status, 0, lenient.stderrText)
        XCTAssertTrue(lenient.stderrText.hasPrefix("data.csv:2: warning:"), lenient.stderrText)
        let json = try JSONSerialization.jsonObject(with: Data(lenient.stdoutText.utf8)) as? [String: Any]
        XCTAssertEqual((json?["warnings"] as? [String])?.first?.hasPrefix("data.csv:2: warning:"), true)
        try assertFails(files, expectedPrefix: "data.csv:2: error:", arguments: ["--strict"])
    }

    func testUsageErrorExits64() throws {
        let result = try BuiltProducts.run("dbgen", ["build", "--no-such-flag"])
        XCTAssertEqual(result.status, 64, result.stderrText)
    }
}
