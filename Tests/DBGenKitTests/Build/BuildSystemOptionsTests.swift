@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// What a build system relies on: options read from `dbgen.json` when the build runs, and no
/// file read from outside the directories it watches (the build would otherwise go stale).
final class BuildSystemOptionsTests: XCTestCase {
    private func options(_ directory: TemporaryDirectory, script: String = "Data/food.dbgen.txt") -> BuildOptions {
        var options = BuildOptions(schema: directory.url(script).path, output: directory.url("out.sqlite").path)
        options.cacheDirectory = directory.url("cache").path
        return options
    }

    func testConfigurationFileTurnsStrictOnWhenTheBuildRuns() throws {
        let directory = try TemporaryDirectory("build-system", removedAfter: self)
        try directory.write("Data/food.dbgen.txt", "CREATE TABLE t(a, b);\n.import --csv data.csv t\n")
        try directory.write("Data/data.csv", "1,2\n3\n")
        try directory.write("dbgen.json", "{\"strict\": false}\n")
        var options = options(directory)
        options.configurationFile = directory.url("dbgen.json").path
        XCTAssertEqual(try DatabaseBuilder.build(options).warnings.count, 1)
        // The same build, now up to date, becomes strict when only the file changes.
        try directory.write("dbgen.json", "{\"strict\": true}\n")
        XCTAssertThrowsError(try DatabaseBuilder.build(options)) { error in
            XCTAssertEqual((error as? DBGenError)?.code, .warningAsError)
            XCTAssertEqual((error as? DBGenError)?.location?.line, 2)
        }
    }

    func testConfigurationErrorsNameTheFileLineAndKey() throws {
        let directory = try TemporaryDirectory("build-system", removedAfter: self)
        try directory.write("Data/food.dbgen.txt", "CREATE TABLE t(a);\n")
        let cases: [(String, String)] = [
            ("{\n  \"strict\": 1\n}\n", "dbgen.json:2: error: 'strict' must be true or false"),
            (
                "{\"strict\": true,\n \"colour\": \"red\"}",
                "dbgen.json:2: error: unknown key 'colour'; the keys are strict"
            ),
            ("[true]", "dbgen.json:1: error: expected a JSON object of options, such as {\"strict\": …}"),
        ]
        for (text, expected) in cases {
            try directory.write("dbgen.json", text)
            var options = options(directory)
            options.configurationFile = directory.url("dbgen.json").path
            XCTAssertThrowsError(try DatabaseBuilder.build(options), text) { error in
                XCTAssertEqual((error as? DBGenError)?.code, .configuration, text)
                XCTAssertEqual(
                    (error as? DBGenError)?.description.replacingOccurrences(of: directory.url.path + "/", with: ""),
                    expected, text)
            }
        }
        var options = options(directory)
        options.configurationFile = directory.url("missing.json").path
        XCTAssertThrowsError(try DatabaseBuilder.build(options)) { error in
            XCTAssertEqual((error as? DBGenError)?.code, .configuration)
            XCTAssertTrue("\(error)".contains("missing.json\": no such file"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("out.sqlite").path))
    }

    func testEveryKindOfReadOutsideTheWatchedDirectoryIsRefusedAtItsLine() throws {
        let directory = try TemporaryDirectory("build-system", removedAfter: self)
        try directory.write("Data/units.csv", "1|g\n")
        try directory.write("outside.csv", "2|kg\n")
        try directory.write("outside.txt", "CREATE TABLE s(a);\n")
        let cases: [(String, Int)] = [
            ("CREATE TABLE t(a, b);\n.separator |\n.import units.csv t\n.import ../outside.csv t\n", 4),
            ("CREATE TABLE t(a, b);\n.read ../outside.txt\n", 2),
            ("CREATE TABLE t(a);\n\nINSERT INTO t\n  SELECT readfile('../outside.csv');\n", 3),
            ("SELECT readfile('../absent.csv');\n", 1), // watched for appearing, so it must be watchable
            (".import --csv \(directory.url("outside.csv").path) t\n", 1),
        ]
        for (script, line) in cases {
            try directory.write("Data/food.dbgen.txt", script)
            var options = options(directory)
            options.inputRoots = [directory.url("Data").path]
            XCTAssertThrowsError(try DatabaseBuilder.build(options), script) { error in
                let error = error as? DBGenError
                XCTAssertEqual(error?.code, .unwatchedInput, script)
                XCTAssertEqual(error?.location?.line, line, script)
                XCTAssertTrue(error?.location?.path.hasSuffix("food.dbgen.txt") ?? false, script)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("out.sqlite").path), script)
        }
    }

    func testReadsUnderTheWatchedDirectoryAreAllowed() throws {
        let directory = try TemporaryDirectory("build-system", removedAfter: self)
        try directory.write("Data/sub dir/units.csv", "1|g\n")
        try directory.write(
            "Data/food.dbgen.txt", "CREATE TABLE t(a, b);\n.separator |\n.import \"sub dir/../sub dir/units.csv\" t\n")
        var options = options(directory)
        options.inputRoots = [directory.url("Data").path + "/"]
        XCTAssertEqual(try DatabaseBuilder.build(options).tables, [BuildSummary.Table(name: "t", rows: 1)])
        // Without roots nothing is checked (dbgen run by hand reads what it likes).
        try directory.write(
            "Data/food.dbgen.txt", "CREATE TABLE t(a, b);\n.separator |\n.import \"../Data/sub dir/units.csv\" t\n")
        XCTAssertNoThrow(try DatabaseBuilder.build(self.options(directory)))
    }

    func testAChangeOfWatchedDirectoriesRunsTheBuildAgain() throws {
        let directory = try TemporaryDirectory("build-system", removedAfter: self)
        try directory.write("outside.csv", "2|kg\n")
        try directory.write("Data/food.dbgen.txt", "CREATE TABLE t(a, b);\n.separator |\n.import ../outside.csv t\n")
        XCTAssertFalse(try DatabaseBuilder.build(options(directory)).upToDate)
        var options = options(directory)
        options.inputRoots = [directory.url("Data").path]
        XCTAssertThrowsError(
            try DatabaseBuilder.build(options), "an up-to-date record from an unchecked build must not let it pass")
    }
}
