@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// The page writer against SQLite's insert path and the sqlite3 shell: seeded random tables
/// (every affinity, INTEGER PRIMARY KEY, NOT NULL, page sizes from 512 to 65536 bytes) and
/// files (integers with signs, spaces and leading zeros, reals with exponents, hexadecimal,
/// huge numbers, empty fields, NULL-looking text, long values that spill to overflow pages,
/// multi-line quoted fields, unicode, short and long records, keys out of order) imported three
/// ways: by dbgen's importer into an empty table (the page writer), by the same importer inside
/// a transaction (which keeps it on SQLite's insert path), and by `sqlite3`. The databases must
/// agree: `.sha3sum`, every row with its rowid, storage class and value, and, between the first
/// two, every record's bytes; `PRAGMA integrity_check` of the page writer's must be `ok`; the
/// warnings and any error must be the same.
final class ImportPageWriterDifferentialTests: XCTestCase {
    func testRandomImportsMatchSQLitesInsertPath() throws {
        var laidOut = 0
        let seeds: ClosedRange<UInt64> = 1...60
        for seed in seeds {
            var generator = SeededGenerator(seed: seed &* 0x9E37_79B9)
            let testCase = ImportPageCase.random(using: &generator)
            if try check(testCase, name: "seed \(seed)") { laidOut += 1 }
        }
        // Most cases must have gone through the page writer, or the comparison proves little
        // (the others: no rows or one, a NULL for a NOT NULL column early on, a bad key).
        XCTAssertGreaterThanOrEqual(laidOut, seeds.count / 2, "too few imports were laid out as pages")
    }

    /// 512-byte pages hold a few rows each: three levels of interior pages over the leaves.
    func testLargeTableWithSeveralInteriorLevels() throws {
        var generator = SeededGenerator(seed: 4242)
        var testCase = ImportPageCase(
            columns: ["INTEGER PRIMARY KEY", "TEXT", "REAL", "NUMERIC"], keyColumn: 0, pageSize: 512,
            separator: UInt8(ascii: ","))
        testCase.records = (1...12_000).map { key in
            [String(key)]
                + testCase.columns.dropFirst().map {
                    ImportPageCase.field(for: $0, pageSize: 512, using: &generator)
                }
        }
        XCTAssertTrue(try check(testCase, name: "12,000 rows in 512-byte pages"))
    }

    /// Every row but the last is laid out; SQLite inserts the last, so what it tells of the
    /// import afterwards is what the shell's import leaves.
    func testAllButTheLastRowAreLaidOutAndSQLiteTellsOfTheLast() throws {
        let testCase = ImportPageCase(
            columns: ["INTEGER PRIMARY KEY", "TEXT", "REAL"], keyColumn: 0, pageSize: 4096,
            separator: UInt8(ascii: ","),
            records: (1...500).map { ["\($0)", "row \($0)", "\($0).25"] })
        let directory = try TemporaryDirectory("page-writer")
        _ = try directory.write("data.csv", Data(testCase.file))
        var told: [[DatabaseValue]] = []
        for inTransaction in [false, true] {
            let run = try ImportPageRun.run(
                testCase, in: directory.url, database: "db\(inTransaction).sqlite", inTransaction: inTransaction
            ) { connection in
                told.append(try connection.query("SELECT changes(), last_insert_rowid()").first?.values ?? [])
            }
            XCTAssertEqual(run.result?.rowsInserted, 500)
            XCTAssertEqual(run.result?.rowsWrittenAsPages, inTransaction ? 0 : 499)
        }
        XCTAssertEqual(told, [[.integer(1), .integer(500)], [.integer(1), .integer(500)]])
        XCTAssertTrue(try check(testCase, name: "500 rows"))
    }

    /// What SQLite tells of the import afterwards, stored by the script, is what sqlite3's
    /// import leaves: `changes()`, `last_insert_rowid()`, and `total_changes()`, which counts
    /// the laid-out rows too.
    func testCountersAfterTheImportMatchTheShell() throws {
        let rows = (1...3000).map { "\($0),row \($0)\n" }.joined()
        let testCase = ImportCase(
            "counters",
            setupSQL: "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT); CREATE TABLE u(x); INSERT INTO u VALUES(1), (2);",
            file: rows, commands: [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])],
            finalSQL: "CREATE TABLE log AS SELECT changes() AS c, last_insert_rowid() AS r, total_changes() AS tc;"
                + " INSERT INTO t(b) VALUES('after'); INSERT INTO log SELECT changes(), last_insert_rowid(), total_changes();"
        )
        let outcome = try ImportDifferentialHarness.assertSameAsSQLite3(testCase)
        XCTAssertTrue(outcome.content.contains("log: integer:1 , integer:3000 , integer:3002"), "\(outcome.content)")
    }

    /// An error after rows were laid out (here an unterminated quote at the end) is reported as
    /// SQLite's insert path reports it, and the table and the file are as they were.
    func testAnErrorAfterLaidOutRowsLeavesTheTableAsItWas() throws {
        let directory = try TemporaryDirectory("page-writer")
        let rows = (1...3000).map { "\($0),text \($0)\n" }.joined()
        _ = try directory.write("data.csv", rows + "3001,\"never closed\n")
        let path = directory.url("out.sqlite").path
        let build = try BuildConnection.open(path)
        defer { withExtendedLifetime(build) { build.connection.close() } }
        let connection = build.connection
        try connection.execute("CREATE TABLE t(a INTEGER, b TEXT); CREATE TABLE u(x); INSERT INTO u VALUES(1)")
        let pagesBefore = try connection.scalar("PRAGMA page_count")
        let request = ImportRequest(
            file: directory.url("data.csv"), displayPath: "data.csv", table: "t",
            format: ImportFormat(quoting: .csv, columnSeparator: UInt8(ascii: ","), rowSeparator: UInt8(ascii: "\n")))
        XCTAssertThrowsError(try CSVImporter.run(request, into: connection, diagnostics: { _ in })) { error in
            XCTAssertEqual((error as? DBGenError)?.message, "unterminated \"-quoted field")
            XCTAssertEqual((error as? DBGenError)?.location?.line, 3001)
        }
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t"), .integer(0))
        XCTAssertEqual(try connection.scalar("PRAGMA page_count"), pagesBefore)
        XCTAssertEqual(try connection.scalar("PRAGMA integrity_check"), .text("ok"))
        XCTAssertEqual(try connection.scalar("SELECT x FROM u"), .integer(1))
        // And the connection goes on as before.
        try connection.execute("INSERT INTO t VALUES(1, 'after')")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t"), .integer(1))
    }

    /// The same inputs give the same bytes.
    func testBuildsAreReproducible() throws {
        let directory = try TemporaryDirectory("page-writer")
        var generator = SeededGenerator(seed: 99)
        var testCase = ImportPageCase.random(using: &generator, rows: 2000)
        testCase.keyMode = .sequential
        _ = try directory.write("data.csv", Data(testCase.file))
        _ = try directory.write("schema.txt", testCase.shellScript)
        var outputs: [Data] = []
        for name in ["one.sqlite", "two.sqlite"] {
            var options = BuildOptions(schema: directory.url("schema.txt").path, output: directory.url(name).path)
            options.force = true
            options.cacheDirectory = nil
            _ = try DatabaseBuilder.build(options)
            outputs.append(try Data(contentsOf: directory.url(name)))
        }
        XCTAssertEqual(outputs[0], outputs[1])
    }

    /// Imports `testCase` the three ways and compares; returns true when the page writer laid
    /// out most of its rows.
    @discardableResult
    private func check(_ testCase: ImportPageCase, name: String, file: StaticString = #filePath, line: UInt = #line)
        throws
        -> Bool
    {
        let directory = try TemporaryDirectory("page-writer")
        _ = try directory.write("data.csv", Data(testCase.file))
        let pages = try ImportPageRun.run(testCase, in: directory.url, database: "pages.sqlite", inTransaction: false)
        let inserts = try ImportPageRun.run(
            testCase, in: directory.url, database: "inserts.sqlite", inTransaction: true)
        XCTAssertEqual(pages.messages, inserts.messages, "\(name): warnings differ", file: file, line: line)
        XCTAssertEqual(pages.error, inserts.error, "\(name): errors differ", file: file, line: line)
        XCTAssertEqual(inserts.result?.rowsWrittenAsPages ?? 0, 0, "\(name): a transaction keeps SQLite's insert path")
        let pagesFile = directory.url("pages.sqlite"), insertsFile = directory.url("inserts.sqlite")
        XCTAssertEqual(
            try ImportPageRun.shell(pagesFile, "PRAGMA integrity_check"), "ok\n", name, file: file, line: line)
        XCTAssertEqual(
            try ImportPageRun.rows(pagesFile), try ImportPageRun.rows(insertsFile), name, file: file, line: line)
        XCTAssertEqual(
            try ImportPageRun.shell(pagesFile, ".sha3sum"), try ImportPageRun.shell(insertsFile, ".sha3sum"), name,
            file: file, line: line)
        let root = try ImportPageRun.rootPage(pagesFile)
        let ours = try TableRecordReader(file: pagesFile).records(root: root)
        let theirs = try TableRecordReader(file: insertsFile).records(root: try ImportPageRun.rootPage(insertsFile))
        XCTAssertEqual(ours.count, theirs.count, name, file: file, line: line)
        if let index = zip(ours, theirs).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            let (a, b) = (ours[index], theirs[index])
            let at =
                zip(a.record, b.record).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(a.record.count, b.record.count)
            XCTFail(
                "\(name): record \(index) differs: rowid \(a.rowid), \(a.record.count) bytes, against SQLite's rowid"
                    + " \(b.rowid), \(b.record.count) bytes; first difference at byte \(at): header"
                    + " \(a.record.prefix(12)) against \(b.record.prefix(12))", file: file, line: line)
        }
        if pages.error == nil {
            // The sqlite3 shell (it goes on after an error dbgen stops at: compared only without one).
            let shellFile = directory.url("shell.sqlite")
            try Oracle.sqlite3.run([shellFile.path], in: directory.url, stdin: testCase.shellScript)
            XCTAssertEqual(
                try ImportPageRun.rows(pagesFile), try ImportPageRun.rows(shellFile), name, file: file, line: line)
            XCTAssertEqual(
                try ImportPageRun.shell(pagesFile, ".sha3sum"), try ImportPageRun.shell(shellFile, ".sha3sum"), name,
                file: file, line: line)
        }
        let written = pages.result?.rowsWrittenAsPages ?? 0
        return written > 0 && written * 2 >= (pages.result?.rowsInserted ?? 0)
    }
}

/// One import run by dbgen's importer on a build's connection.
struct ImportPageRun {
    var result: ImportResult?
    var messages: [String] = []
    var error: String?

    static func run(
        _ testCase: ImportPageCase, in directory: URL, database: String, inTransaction: Bool,
        afterImport: (Connection) throws -> Void = { _ in }
    ) throws -> ImportPageRun {
        var run = ImportPageRun()
        let build = try BuildConnection.open(directory.appendingPathComponent(database).path)
        let connection = build.connection
        defer { withExtendedLifetime(build) { connection.close() } }
        try connection.execute(testCase.schemaSQL)
        if inTransaction { try connection.execute("BEGIN") }
        let request = ImportRequest(
            file: directory.appendingPathComponent("data.csv"), displayPath: "data.csv", table: "t",
            format: ImportFormat(quoting: .csv, columnSeparator: testCase.separator, rowSeparator: UInt8(ascii: "\n")))
        do {
            run.result = try CSVImporter.run(
                request, into: connection,
                diagnostics: { diagnostic in
                    run.messages.append("\(diagnostic.location?.line ?? 0): \(diagnostic.message)")
                })
        } catch let error as DBGenError {
            run.error = "\(error.location?.line ?? 0): \(error.message)"
        }
        if inTransaction { try connection.execute("COMMIT") }
        try afterImport(connection)
        try BuildConnection.seal(connection)
        return run
    }

    /// Every row of `t` with its rowid, each value's storage class and value (`quote`).
    static func rows(_ file: URL) throws -> [String] {
        let connection = try Connection(path: file.path, readOnly: true)
        let columns = try connection.query("SELECT name FROM pragma_table_info('t')").map { $0.values[0].shellText }
        let values = columns.map { "typeof(\(SQLIdentifier.quote($0))) || ':' || quote(\(SQLIdentifier.quote($0)))" }
        let sql = "SELECT rowid || ' ' || " + values.joined(separator: " || ' ' || ") + " FROM t ORDER BY rowid"
        return try connection.query(sql).map { $0.values[0].shellText }
    }

    static func rootPage(_ file: URL) throws -> Int {
        let connection = try Connection(path: file.path, readOnly: true)
        guard case .integer(let root)? = try connection.scalar("SELECT rootpage FROM sqlite_master WHERE name = 't'")
        else { throw TableRecordReader.Malformed(description: "no table t") }
        return Int(root)
    }

    /// What the sqlite3 shell prints for `command` on `file`.
    static func shell(_ file: URL, _ command: String) throws -> String {
        try Oracle.sqlite3.run([file.path, command]).stdoutText
    }
}
