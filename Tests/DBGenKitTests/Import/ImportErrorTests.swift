@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Where sqlite3 reports a problem and carries on, ``CSVImporter`` stops with a located error
/// and leaves nothing of its own rows behind.
final class ImportErrorTests: XCTestCase {
    private var directory: URL!
    private var db: Connection!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("import-errors", removedAfter: self).url
        db = try ImportDifferentialHarness.open(directory.appendingPathComponent("out.sqlite"))
    }

    override func tearDownWithError() throws {
        db = nil
    }

    private func write(_ text: String, to name: String = "data.csv") throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    @discardableResult
    private func importFile(
        _ name: String = "data.csv", table: String = "t", format: ImportFormat = .csv,
        skip: Int = 0, schema: String? = nil, warnings: ((Diagnostic) throws -> Void)? = nil
    ) throws -> ImportResult {
        let request = ImportRequest(
            file: directory.appendingPathComponent(name), displayPath: "csv/\(name)",
            table: table, schema: schema, skip: skip, format: format)
        return try CSVImporter.run(request, into: db, diagnostics: { try warnings?($0) })
    }

    private func assertError(
        _ expression: @autoclosure () throws -> Any, line expectedLine: Int?, contains text: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard let diagnostic = error as? DBGenError else {
                return XCTFail("not a DBGenError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(diagnostic.location?.line, expectedLine, "\(diagnostic)", file: file, line: line)
            if expectedLine != nil { XCTAssertEqual(diagnostic.location?.path, "csv/data.csv", file: file, line: line) }
            XCTAssertTrue(
                diagnostic.message.contains(text), "\(diagnostic.message) lacks \(text)", file: file, line: line)
        }
    }

    private func count(_ table: String = "t") throws -> String {
        try ImportDifferentialHarness.query(db, "SELECT count(*) FROM \(table)")[0][0]
    }

    func testMissingFileAndDirectoryAreRefusedWithTheirName() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a);")
        assertError(try importFile("nope.csv"), line: nil, contains: "cannot open \"csv/nope.csv\"")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("dir.csv"), withIntermediateDirectories: true)
        assertError(try importFile("dir.csv"), line: nil, contains: "cannot open \"csv/dir.csv\"")
    }

    func testPipeIsNeverRun() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a);")
        let marker = directory.appendingPathComponent("ran")
        let request = ImportRequest(
            file: directory.appendingPathComponent("|touch \(marker.path)"),
            displayPath: "|touch \(marker.path)", table: "t", format: .csv)
        XCTAssertThrowsError(try CSVImporter.run(request, into: db, diagnostics: { _ in })) { error in
            XCTAssertTrue(
                (error as? DBGenError)?.message.contains("running a program is not allowed") ?? false, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path))
    }

    func testUnterminatedQuoteStopsAtTheLineWhereTheFieldStarts() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a, b);")
        try write("1,2\n3,\"four\nfive\n6,7\n")
        assertError(try importFile(), line: 2, contains: "unterminated \"-quoted field")
        XCTAssertEqual(try count(), "0", "the rows before the error are rolled back")
    }

    func testFailedInsertNamesTheRecordLineAndSQLiteMessage() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a UNIQUE, b NOT NULL);")
        try write("1,x\n\"2\nmore\",y\n1,z\n")
        assertError(try importFile(), line: 4, contains: "INSERT failed: UNIQUE constraint failed: t.a")
        XCTAssertEqual(try count(), "0")
        try write("1,x\n2\n")
        assertError(try importFile(), line: 2, contains: "NOT NULL constraint failed: t.b")
    }

    func testStrictTypeMismatch() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a INTEGER) STRICT;")
        try write("1\n2\nthree\n")
        assertError(try importFile(), line: 3, contains: "cannot store TEXT value in INTEGER column t.a")
    }

    func testTableThatCannotBeCreatedOrQueried() throws {
        try write("a,b\n1,2\n")
        assertError(try importFile(schema: "nowhere"), line: 1, contains: "unknown database \"nowhere\"")
        try write("")
        assertError(try importFile(table: "fresh"), line: 1, contains: "empty file")
        try ImportDifferentialHarness.exec(db, "CREATE VIEW v AS SELECT 1 AS x;")
        try write("1\n")
        assertError(try importFile(table: "v"), line: nil, contains: "cannot modify v because it is a view")
    }

    func testOpenTransactionIsKeptAndOnlyTheImportIsUndone() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a UNIQUE); BEGIN; INSERT INTO t VALUES('before');")
        try write("x\ny\nx\n")
        assertError(try importFile(), line: 3, contains: "UNIQUE constraint failed")
        XCTAssertTrue(db.isInTransaction, "the caller's transaction is still open")
        XCTAssertEqual(try ImportDifferentialHarness.query(db, "SELECT a FROM t"), [["before"]])
        try ImportDifferentialHarness.exec(db, "COMMIT;")
    }

    func testThrowingWarningHandlerStopsTheImport() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a, b);")
        try write("1,2\n3\n4,5\n")
        struct Strict: Error {}
        var seen: [Diagnostic] = []
        XCTAssertThrowsError(
            try importFile(warnings: {
                seen.append($0); throw Strict()
            })
        ) { error in
            XCTAssertTrue(error is Strict)
        }
        XCTAssertEqual(
            seen,
            [
                Diagnostic.importWarning(
                    .missingFields, "expected 2 columns but found 1 - filling the rest with NULL",
                    at: SourceLocation(path: "csv/data.csv", line: 2))
            ])
        XCTAssertEqual(try count(), "0")
        XCTAssertFalse(db.isInTransaction)
    }

    func testResultAndProgress() throws {
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(a, b);")
        try write("1,2\n3\n\"4\"x\",5\n")
        var warnings: [String] = []
        let request = ImportRequest(
            file: directory.appendingPathComponent("data.csv"), displayPath: "data.csv",
            table: "t", format: .csv)
        var reports: [ImportProgress] = []
        let result = try CSVImporter.run(
            request, into: db, diagnostics: { warnings.append($0.description) },
            progress: { reports.append($0) })
        // The page writer laid out two rows; SQLite inserted the last.
        XCTAssertEqual(result, ImportResult(rowsInserted: 3, createdTable: false, warnings: 2, rowsWrittenAsPages: 2))
        XCTAssertEqual(
            warnings,
            [
                "data.csv:2: warning: expected 2 columns but found 1 - filling the rest with NULL",
                "data.csv:3: warning: unescaped \" character",
            ])
        XCTAssertEqual(reports.last, ImportProgress(file: "data.csv", bytesRead: 14, totalBytes: 14))
        XCTAssertEqual(
            try ImportDifferentialHarness.query(db, "SELECT quote(a), quote(b) FROM t WHERE rowid = 3"),
            [["'4\"x'", "'5'"]])
    }
}
