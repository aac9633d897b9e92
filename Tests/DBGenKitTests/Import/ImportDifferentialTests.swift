@testable import DBGenKit
import ShipyardTestSupport
import XCTest

/// `.import` compared with the sqlite3 3.40 CLI: same rows, types, schema and warnings.
final class ImportDifferentialTests: XCTestCase {
    private let food =
        #"CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);"#
    private let csvPipe: [ImportScriptCommand] = [
        .mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "food", options: []),
    ]

    private func check(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, file: file, line: line)
    }

    private func checkStops(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, expectingError: true, file: file, line: line)
    }

    func testPipeSeparatedFoodLikeTheOriginalWorkflow() throws {
        try check(
            ImportCase(
                "food", setupSQL: food,
                file: "1|2|apple|raw\n2|3|\"cheese, sliced\"|\"say \"\"hi\"\"\"\n3|4|\"a|b\"|\"line1\nline2\"\n",
                commands: csvPipe))
    }

    func testShortAndLongRowsWarnLikeSQLite3() throws {
        try check(ImportCase("short-long", setupSQL: food, file: "1|2\n2|3|x|y|z|w\n3\n4|5|6|7|\n", commands: csvPipe))
    }

    func testBlankTrailingLineAndNoTrailingNewline() throws {
        try check(
            ImportCase("blank-trailing", setupSQL: "CREATE TABLE food(a, b, c);", file: "1|2|a\n\n", commands: csvPipe))
        try check(
            ImportCase("blank-trailing-one-column", setupSQL: "CREATE TABLE food(a);", file: "1\n\n", commands: csvPipe)
        )
        try check(ImportCase("no-newline", setupSQL: food, file: "1|2|a|b\n2|3|c|d", commands: csvPipe))
        try check(ImportCase("empty", setupSQL: food, file: "", commands: csvPipe))
        try check(ImportCase("trailing-separator-at-eof", setupSQL: food, file: "1|2|a|", commands: csvPipe))
    }

    func testQuotesDoubledUnescapedAndAfterClosingQuote() throws {
        let setup = "CREATE TABLE t(a, b, c);"
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        try check(
            ImportCase(
                "quotes", setupSQL: setup,
                file: "\"a\"\"b\",\"\",\"\"\"\"\n\"x\"y,z,w\"\n\"p\"q\",r,s\nab\"c,\"d\"\"\",e\n", commands: commands))
        try check(
            ImportCase("quote-cr", setupSQL: setup, file: "\"a\"\r\n\"b\"\r,c,d\r\n1,2,\"3\"\r\n", commands: commands))
    }

    func testCRLFAndBOM() throws {
        let setup = "CREATE TABLE t(a, b);"
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        try check(
            ImportCase(
                "crlf-bom", setupSQL: setup,
                files: ["data.csv": [0xEF, 0xBB, 0xBF] + Array("1,2\r\n\"3\",\"4\"\r\n5,6\r\r\n".utf8)],
                commands: commands))
        try check(
            ImportCase(
                "bom-quoted", setupSQL: setup, files: ["data.csv": [0xEF, 0xBB, 0xBF] + Array("\"1\",2\n".utf8)],
                commands: commands))
        try check(
            ImportCase(
                "half-bom", setupSQL: setup,
                files: ["data.csv": [0xEF, 0xBB, 0x41, 0x2C, 0x42, 0x0A, 0xEF, 0xBB, 0xBF, 0x0A]], commands: commands))
    }

    func testMissingTableCreatedFromHeaderWithDuplicateAndEmptyNames() throws {
        let commands: [ImportScriptCommand] = [
            .mode(["csv"]), .import(file: "data.csv", table: "new table", options: []),
        ]
        try check(ImportCase("header", file: "a,A,b,,,a_2,x\"y\n1,2,3,4,5,6,7\n8,9\n", commands: commands))
        try check(
            ImportCase("header-12", file: "a,a,a,a,a,a,a,a,a,a,a,a\n1,2,3,4,5,6,7,8,9,10,11,12\n", commands: commands))
        try check(ImportCase("header-only", file: "k,v", commands: commands))
        try check(
            ImportCase(
                "header-unicode-case",
                file: "É,é,Straße,STRASSE,x,X,\"multi\nline\",\"q\"\"uote\"\r\n1,2,3,4,5,6,7,8\r\n", commands: commands)
        )
        try check(
            ImportCase(
                "header-bom", files: ["data.csv": [0xEF, 0xBB, 0xBF] + Array("id,name\n1,x\n".utf8)], commands: commands
            ))
        try check(ImportCase("header-trailing-separator", file: "a,b,\n1,2,3\n", commands: commands))
        try check(
            ImportCase(
                "header-many", file: (1...30).map { _ in "c" }.joined(separator: ",") + ",c_10\n1\n", commands: commands
            ))
    }

    /// 3.40 picks the zero padding with positions padded to the column count's digits but
    /// writes them unpadded: its CREATE TABLE can then fail on a duplicate; so does dbgen's.
    func testHeaderWhoseRenamesCollideFailsLikeSQLite3() throws {
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        for header in [
            (1...12).map { _ in "a" }.joined(separator: ",") + ",a_1",
            (1...30).map { _ in "c" }.joined(separator: ",") + ",c_1,c_01",
        ] {
            let testCase = ImportCase("header-collision", file: header + "\n", commands: commands)
            let directory = try TemporaryDirectory("import-diff", removedAfter: self).url
            try Data((header + "\n").utf8).write(to: directory.appendingPathComponent("data.csv"))
            let ours = try ImportDifferentialHarness.runDBGen(testCase, in: directory)
            XCTAssertTrue(
                ours.error?.message.contains("duplicate column name") ?? false, "\(String(describing: ours.error))")
            let shell = try ImportDifferentialHarness.runSQLite3(testCase, in: directory)
            XCTAssertEqual(Array(ours.messages.dropLast()), Array(shell.messages.prefix(ours.messages.count - 1)))
            XCTAssertEqual(shell.content.filter { $0.hasPrefix("schema:") }, [], "sqlite3 creates no table either")
            XCTAssertTrue(shell.messages.contains { $0.hasPrefix("duplicate column name") }, "\(shell.messages)")
        }
    }

    /// A bare `.mode` re-applies the current mode: after `.mode csv` and `.separator |` it
    /// puts the `,` back, so the import splits at commas (as sqlite3 does).
    func testBareModeReappliesTheCurrentModeBeforeAnImport() throws {
        try check(
            ImportCase(
                "bare-mode", setupSQL: "CREATE TABLE t(a, b, c);", file: "1|2,3\n4|5,6\n",
                commands: [
                    .mode(["csv"]), .separator("|", nil), .mode([]),
                    .import(file: "data.csv", table: "t", options: []),
                ]))
    }

    func testBlankLineIntoIntegerPrimaryKeyStopsWhereSQLite3ReportsInsertFailed() throws {
        try checkStops(ImportCase("blank-into-pk", setupSQL: food, file: "1|2|a|b\n\n", commands: csvPipe))
        try checkStops(
            ImportCase("duplicate-pk", setupSQL: food, file: "1|2|a|b\n2|x\n1|3|c|d\n4|4|e|f\n", commands: csvPipe))
    }
}

/// More corners of `.import`, each compared with sqlite3.
final class ImportDifferentialCornerTests: XCTestCase {
    private func check(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, file: file, line: line)
    }

    private func csvInto(_ table: String, options: [String] = []) -> [ImportScriptCommand] {
        [.mode(["csv"]), .import(file: "data.csv", table: table, options: options)]
    }

    func testAffinityOddities() throws {
        let values = [
            " 12", "12 ", "1e3", "0x10", "12abc", "", "-0", "9223372036854775808", "-9223372036854775808",
            "1.0", "1.5e400", "+7", ".5", "5.", "NaN", "null", "'q'", "x'00'", "\t3", "0012", "1_000",
        ]
        let file =
            values.map { v in (0..<6).map { _ in "\"\(v)\"" }.joined(separator: ",") }.joined(separator: "\n") + "\n"
        try check(
            ImportCase(
                "affinity", setupSQL: "CREATE TABLE t(i INTEGER, r REAL, n NUMERIC, b BLOB, x, t TEXT);",
                file: file, commands: csvInto("t")))
    }

    func testStrictAndWithoutRowidTables() throws {
        try check(
            ImportCase(
                "strict", setupSQL: "CREATE TABLE t(i INTEGER, r REAL, t TEXT, a ANY) STRICT;",
                file: "1,2.5,x,y\n 3,4,5,6\n7,1e2,,\n", commands: csvInto("t")))
        try ImportDifferentialHarness.assertSameAsSQLite3(
            ImportCase(
                "strict-mismatch", setupSQL: "CREATE TABLE t(i INTEGER, r REAL) STRICT;",
                file: "1,2\nabc,3\n", commands: csvInto("t")), expectingError: true)
        try check(
            ImportCase(
                "without-rowid", setupSQL: "CREATE TABLE t(k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;",
                file: "b,1\na,2\nc,x\n", commands: csvInto("t")))
    }

    func testSkip() throws {
        try check(
            ImportCase(
                "skip", setupSQL: "CREATE TABLE t(a, b);", file: "h1,h2\n\"multi\nline\",x\n1,2\n3,4\n",
                commands: csvInto("t", options: ["--skip", "2"])))
        // An empty first field at the very start of the file.
        try check(
            ImportCase(
                "skip-empty-first", setupSQL: "CREATE TABLE t(a, b);", file: ",h2\n1,2\n3,4\n",
                commands: csvInto("t", options: ["--skip", "1"])))
        try check(
            ImportCase(
                "skip-all", setupSQL: "CREATE TABLE t(a, b);", file: "1,2\n",
                commands: csvInto("t", options: ["--skip", "5"])))
        try check(
            ImportCase("skip-create", file: "junk\na,b\n1,2\n", commands: csvInto("made", options: ["--skip", "1"])))
    }

    func testAsciiModeAndOption() throws {
        let file = "a\u{1F}b\u{1E}\u{1E}c\u{1F}\"d\"\u{1E}e\r\u{1F}f\u{1F}g\u{1E}h\u{1E}"
        try check(
            ImportCase(
                "ascii-mode", setupSQL: "CREATE TABLE t(x, y);", file: file,
                commands: [.mode(["ascii"]), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "ascii-option", setupSQL: "CREATE TABLE t(x, y);", file: file,
                commands: [.mode(["csv"]), .import(file: "data.csv", table: "t", options: ["--ascii"])]))
        try check(
            ImportCase(
                "csv-option-in-ascii-mode", setupSQL: "CREATE TABLE t(x, y);", file: "1,2\n\n,3\n\"\",4\n",
                commands: [.mode(["ascii"]), .import(file: "data.csv", table: "t", options: ["--csv"])]))
        // An empty first field followed by more fields: the shell re-inserts the previous row.
        try check(
            ImportCase(
                "ascii-stale-row", setupSQL: "CREATE TABLE t(x, y);",
                file: "1\u{1F}2\u{1E}\u{1F}p\u{1F}q\u{1E}\u{1F}z\u{1E}3\u{1F}4\u{1E}",
                commands: [.mode(["ascii"]), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "ascii-create", file: "k\u{1F}v\u{1E}1\u{1F}2\u{1E}",
                commands: [.mode(["ascii"]), .import(file: "data.csv", table: "made", options: [])]))
    }

    func testTabsListTclQuoteModes() throws {
        let setup = "CREATE TABLE t(a, b, c);"
        try check(
            ImportCase(
                "tabs", setupSQL: setup, file: "1\t\"2\t3\"\tx\n4\t5\n",
                commands: [.mode(["tabs"]), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "list", setupSQL: setup, file: "1|\"2|3\"|x\r\n4|5|6|7\n",
                commands: [.import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "tcl", setupSQL: setup, file: "1 \"2 3\" x\n",
                commands: [.mode(["tcl"]), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "quote", setupSQL: setup, file: "1,'2',x\n",
                commands: [.mode(["quote"]), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "csv-then-tabs", setupSQL: setup, file: "1,2,3\n",
                commands: [
                    .mode(["csv"]), .import(file: "data.csv", table: "t", options: []),
                    .mode(["tabs"]), .import(file: "data.csv", table: "t", options: []),
                ]))
    }

    func testSeparatorOrder() throws {
        let setup = "CREATE TABLE t(a, b);"
        try check(
            ImportCase(
                "separator-before-mode", setupSQL: setup, file: "1|2\n3,4\n",
                commands: [.separator("|", nil), .mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "separator-after-mode", setupSQL: setup, file: "1|2\n3,4\n",
                commands: [.mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "separator-row", setupSQL: setup, file: "1;2!3;4!",
                commands: [.mode(["csv"]), .separator(";", "!"), .import(file: "data.csv", table: "t", options: [])]))
        try check(
            ImportCase(
                "csv-option-overrides", setupSQL: setup, file: "1,2\n3|4\n",
                commands: [
                    .mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "t", options: ["--csv"]),
                ]))
    }

    func testUnicodeAndNulBytes() throws {
        let file = "e\u{301},\"🧑‍🚀 rocket\"\n豆腐,café crème\n\u{FEFF}x,ǅ\n"
        try check(ImportCase("unicode", setupSQL: "CREATE TABLE t(a, b);", file: file, commands: csvInto("t")))
        try check(
            ImportCase(
                "nul", setupSQL: "CREATE TABLE t(a, b);",
                files: ["data.csv": Array("a\u{0}b,c\n\"\u{0}\",d\n".utf8)], commands: csvInto("t")))
        try check(
            ImportCase(
                "invalid-utf8", setupSQL: "CREATE TABLE t(a, b);",
                files: ["data.csv": [0xFF, 0xFE, 0x2C, 0xC3, 0x0A]], commands: csvInto("t")))
    }

    func testSchemaOption() throws {
        try check(
            ImportCase(
                "schema-main", setupSQL: "CREATE TABLE t(a, b);", file: "1,2\n",
                commands: csvInto("t", options: ["--schema", "main"])))
        try check(
            ImportCase(
                "schema-temp", setupSQL: "CREATE TEMP TABLE t(a, b); CREATE TABLE t(a, b);", file: "1,2\n",
                commands: csvInto("t", options: ["--schema", "temp"]),
                finalSQL: "CREATE TABLE copied AS SELECT * FROM temp.t;"))
        try check(
            ImportCase(
                "temp-shadows-main", setupSQL: "CREATE TEMP TABLE t(a, b); CREATE TABLE t(a, b);", file: "1,2\n",
                commands: csvInto("t"), finalSQL: "CREATE TABLE copied AS SELECT * FROM temp.t;"))
        try check(
            ImportCase(
                "schema-temp-create", file: "h\n1\n", commands: csvInto("t", options: ["--schema", "temp"]),
                finalSQL: "CREATE TABLE copied AS SELECT * FROM temp.t;"))
    }

    func testInsideAnOpenTransactionAndWithTriggers() throws {
        try check(
            ImportCase(
                "in-transaction", setupSQL: "CREATE TABLE t(a, b); BEGIN;", file: "1,2\n",
                commands: csvInto("t"), finalSQL: "COMMIT;"))
        try check(
            ImportCase(
                "trigger",
                setupSQL:
                    "CREATE TABLE t(a, b); CREATE TABLE log(x); CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES(new.a || typeof(new.b)); END;",
                file: "1,\n2,3\n", commands: csvInto("t")))
    }
}
