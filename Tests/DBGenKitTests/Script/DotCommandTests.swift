import XCTest
@testable import DBGenKit
import SQLiteCore

/// Dot-command arguments are split and unescaped as the sqlite3 3.40 shell does.
final class DotCommandTests: XCTestCase {
    func testBareWordsAndQuotes() {
        XCTAssertEqual(
            DotCommandTokenizer.tokenize(".import  'my file.csv'  \"tab le\"\t"), ["import", "my file.csv", "tab le"])
    }

    func testBackslashEscapesResolvedInDoubleQuotesAndBareWordsOnly() {
        XCTAssertEqual(DotCommandTokenizer.tokenize(#".separator \t "\n""#), ["separator", "\t", "\n"])
        XCTAssertEqual(DotCommandTokenizer.tokenize(#".separator '\t'"#), ["separator", "\\t"])
        XCTAssertEqual(DotCommandTokenizer.tokenize(#".x "a\"b" c\\d \101 \q"#), ["x", "a\"b", "c\\d", "A", "q"])
    }

    func testUnclosedQuoteRunsToEndOfLine() {
        XCTAssertEqual(DotCommandTokenizer.tokenize(".read 'a b"), ["read", "a b"])
    }

    func testQuotedEmptyArgument() {
        XCTAssertEqual(DotCommandTokenizer.tokenize(".nullvalue ''"), ["nullvalue", ""])
    }

    func testImportOptions() throws {
        let command = try DotCommandParser.parse(["import", "--csv", "--skip", "1", "-schema", "main", "f.csv", "t"])
        guard case .importFile(let args)? = command else { return XCTFail() }
        XCTAssertEqual(args.file, "f.csv")
        XCTAssertEqual(args.table, "t")
        XCTAssertEqual(args.schema, "main")
        XCTAssertEqual(args.skip, 1)
        XCTAssertEqual(args.forcedQuoting, .csv)
        guard case .importFile(let ascii)? = try DotCommandParser.parse(["import", "--ascii", "f", "t"]) else {
            return XCTFail()
        }
        XCTAssertEqual(ascii.forcedQuoting, .ascii)
    }

    func testImportErrors() {
        XCTAssertThrowsError(try DotCommandParser.parse(["import", "f.csv"]))
        XCTAssertThrowsError(try DotCommandParser.parse(["import", "a", "b", "c"]))
        XCTAssertThrowsError(try DotCommandParser.parse(["import", "--bogus", "a", "b"]))
        XCTAssertThrowsError(try DotCommandParser.parse(["import", "|cat x", "t"])) { error in
            XCTAssertTrue((error as? DBGenError)?.code == .refused)
        }
    }

    func testAbbreviationsAndKnownCommands() throws {
        XCTAssertEqual(try DotCommandParser.parse(["sep", "|"]), .separator(column: Array("|".utf8), row: nil))
        XCTAssertEqual(try DotCommandParser.parse(["mode", "csv"]), .mode(["csv"]))
        XCTAssertEqual(try DotCommandParser.parse(["read", "x.txt"]), .read("x.txt"))
        XCTAssertEqual(try DotCommandParser.parse(["headers", "on"]), .outputOnly("headers"))
        XCTAssertEqual(try DotCommandParser.parse(["bail", "on"]), .outputOnly("bail"))
        XCTAssertEqual(try DotCommandParser.parse(["nullvalue", "NULL"]), .outputOnly("nullvalue"))
        XCTAssertThrowsError(try DotCommandParser.parse(["bail"]))
        XCTAssertThrowsError(try DotCommandParser.parse(["headers", "on", "off"]))
    }

    func testStateCommandsAndShellValueReading() throws {
        XCTAssertEqual(
            try DotCommandParser.parse(["param", "set", ":x", "5"]), .parameter(.set(key: ":x", value: "5")))
        XCTAssertEqual(try DotCommandParser.parse(["parameter", "unset", "@y"]), .parameter(.unset("@y")))
        XCTAssertEqual(
            try DotCommandParser.parse(["dbconfig", "enable_fkey", "on"]),
            .databaseOption(DatabaseOption.named("enable_fkey")!, enabled: true))
        XCTAssertEqual(
            try DotCommandParser.parse(["limits", "LEN", "10K"]), .limit(RuntimeLimit.all[0], value: 10_000))
        XCTAssertThrowsError(try DotCommandParser.parse(["limit", "l"])) // length, like_pattern_length
        XCTAssertThrowsError(try DotCommandParser.parse(["dbconfig", "load_extension", "on"])) { error in
            XCTAssertEqual((error as? DBGenError)?.code, .refused)
        }
        XCTAssertEqual(ShellArgumentValue.integer("0x10"), 16)
        XCTAssertEqual(ShellArgumentValue.integer("-2KiB"), -2048)
        XCTAssertEqual(ShellArgumentValue.integer("12abc"), 12)
        XCTAssertEqual(ShellArgumentValue.boolean("YES"), true)
        XCTAssertEqual(ShellArgumentValue.boolean("0x0"), false)
        XCTAssertNil(ShellArgumentValue.boolean("true"), "3.40 does not know true/false")
        XCTAssertEqual(try DotCommandParser.parse(["exit", "0"]), .quit)
        XCTAssertThrowsError(try DotCommandParser.parse(["exit", "2"]))
        XCTAssertEqual(try DotCommandParser.parse(["rest", "db.sqlite"]), .restore(schema: "main", file: "db.sqlite"))
        XCTAssertEqual(
            try DotCommandParser.parse(["restore", "temp", "db.sqlite"]), .restore(schema: "temp", file: "db.sqlite"))
        XCTAssertThrowsError(try DotCommandParser.parse(["restore"]))
    }

    func testUnsafeAndUnknownCommandsAreRefused() {
        for name in [
            "shell", "system", "output", "once", "backup", "save", "open", "load", "log", "trace", "excel",
            "clone", "archive", "ar", "testcase", "session",
        ] {
            XCTAssertThrowsError(try DotCommandParser.parse([name, "x"]), name) { error in
                XCTAssertTrue((error as? DBGenError)?.code == .refused, name)
            }
        }
        XCTAssertThrowsError(try DotCommandParser.parse(["read", "|ls"]))
        XCTAssertThrowsError(try DotCommandParser.parse(["frobnicate"])) { error in
            XCTAssertTrue((error as? DBGenError)?.message.contains("unknown") ?? false)
        }
    }
}
