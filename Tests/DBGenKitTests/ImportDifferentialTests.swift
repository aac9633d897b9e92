import DBGenKit
import XCTest

/// `.import` compared with the sqlite3 3.40 CLI: same rows, types, schema and warnings.
final class ImportDifferentialTests: XCTestCase {
    private let food = #"CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);"#
    private let csvPipe: [ImportScriptCommand] = [.mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "food", options: [])]

    private func check(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, file: file, line: line)
    }

    private func checkStops(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, expectingError: true, file: file, line: line)
    }

    func testPipeSeparatedFoodLikeTheOriginalWorkflow() throws {
        try check(ImportCase("food", setupSQL: food, file: "1|2|apple|raw\n2|3|\"cheese, sliced\"|\"say \"\"hi\"\"\"\n3|4|\"a|b\"|\"line1\nline2\"\n", commands: csvPipe))
    }

    func testShortAndLongRowsWarnLikeSQLite3() throws {
        try check(ImportCase("short-long", setupSQL: food, file: "1|2\n2|3|x|y|z|w\n3\n4|5|6|7|\n", commands: csvPipe))
    }

    func testBlankTrailingLineAndNoTrailingNewline() throws {
        try check(ImportCase("blank-trailing", setupSQL: "CREATE TABLE food(a, b, c);", file: "1|2|a\n\n", commands: csvPipe))
        try check(ImportCase("blank-trailing-one-column", setupSQL: "CREATE TABLE food(a);", file: "1\n\n", commands: csvPipe))
        try check(ImportCase("no-newline", setupSQL: food, file: "1|2|a|b\n2|3|c|d", commands: csvPipe))
        try check(ImportCase("empty", setupSQL: food, file: "", commands: csvPipe))
        try check(ImportCase("trailing-separator-at-eof", setupSQL: food, file: "1|2|a|", commands: csvPipe))
    }

    func testQuotesDoubledUnescapedAndAfterClosingQuote() throws {
        let setup = "CREATE TABLE t(a, b, c);"
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        try check(ImportCase("quotes", setupSQL: setup, file: "\"a\"\"b\",\"\",\"\"\"\"\n\"x\"y,z,w\"\n\"p\"q\",r,s\nab\"c,\"d\"\"\",e\n", commands: commands))
        try check(ImportCase("quote-cr", setupSQL: setup, file: "\"a\"\r\n\"b\"\r,c,d\r\n1,2,\"3\"\r\n", commands: commands))
    }

    func testCRLFAndBOM() throws {
        let setup = "CREATE TABLE t(a, b);"
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        try check(ImportCase("crlf-bom", setupSQL: setup, files: ["data.csv": [0xEF, 0xBB, 0xBF] + Array("1,2\r\n\"3\",\"4\"\r\n5,6\r\r\n".utf8)], commands: commands))
        try check(ImportCase("bom-quoted", setupSQL: setup, files: ["data.csv": [0xEF, 0xBB, 0xBF] + Array("\"1\",2\n".utf8)], commands: commands))
        try check(ImportCase("half-bom", setupSQL: setup, files: ["data.csv": [0xEF, 0xBB, 0x41, 0x2C, 0x42, 0x0A, 0xEF, 0xBB, 0xBF, 0x0A]], commands: commands))
    }

    func testMissingTableCreatedFromHeaderWithDuplicateAndEmptyNames() throws {
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "new table", options: [])]
        try check(ImportCase("header", file: "a,A,b,,,a_2,x\"y\n1,2,3,4,5,6,7\n8,9\n", commands: commands))
        try check(ImportCase("header-12", file: "a,a,a,a,a,a,a,a,a,a,a,a\n1,2,3,4,5,6,7,8,9,10,11,12\n", commands: commands))
        try check(ImportCase("header-only", file: "k,v", commands: commands))
    }

    func testBlankLineIntoIntegerPrimaryKeyStopsWhereSQLite3ReportsInsertFailed() throws {
        try checkStops(ImportCase("blank-into-pk", setupSQL: food, file: "1|2|a|b\n\n", commands: csvPipe))
        try checkStops(ImportCase("duplicate-pk", setupSQL: food, file: "1|2|a|b\n2|x\n1|3|c|d\n4|4|e|f\n", commands: csvPipe))
    }
}
