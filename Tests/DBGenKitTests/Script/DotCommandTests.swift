import XCTest
@testable import DBGenKit

/// Dot-command arguments are split and unescaped as the sqlite3 3.40 shell does.
final class DotCommandTests: XCTestCase {
    func testBareWordsAndQuotes() {
        XCTAssertEqual(DotCommandTokenizer.tokenize(".import  'my file.csv'  \"tab le\"\t"), ["import", "my file.csv", "tab le"])
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
        let command = try DotCommand.parse(["import", "--csv", "--skip", "1", "-schema", "main", "f.csv", "t"])
        guard case .importFile(let args)? = command else { return XCTFail() }
        XCTAssertEqual(args.file, "f.csv")
        XCTAssertEqual(args.table, "t")
        XCTAssertEqual(args.schema, "main")
        XCTAssertEqual(args.skip, 1)
        XCTAssertEqual(args.forcedQuoting, .csv)
        guard case .importFile(let ascii)? = try DotCommand.parse(["import", "--ascii", "f", "t"]) else { return XCTFail() }
        XCTAssertEqual(ascii.forcedQuoting, .ascii)
    }

    func testImportErrors() {
        XCTAssertThrowsError(try DotCommand.parse(["import", "f.csv"]))
        XCTAssertThrowsError(try DotCommand.parse(["import", "a", "b", "c"]))
        XCTAssertThrowsError(try DotCommand.parse(["import", "--bogus", "a", "b"]))
        XCTAssertThrowsError(try DotCommand.parse(["import", "|cat x", "t"])) { error in
            XCTAssertTrue((error as? DBGenError)?.code == .refused)
        }
    }

    func testAbbreviationsAndKnownCommands() throws {
        XCTAssertEqual(try DotCommand.parse(["sep", "|"]), .separator(column: "|", row: nil))
        XCTAssertEqual(try DotCommand.parse(["mode", "csv"]), .mode(["csv"]))
        XCTAssertEqual(try DotCommand.parse(["read", "x.txt"]), .read("x.txt"))
        XCTAssertEqual(try DotCommand.parse(["headers", "on"]), .ignored("headers"))
        XCTAssertEqual(try DotCommand.parse(["bail", "on"]), .ignored("bail"))
        XCTAssertEqual(try DotCommand.parse(["nullvalue", "NULL"]), .ignored("nullvalue"))
        XCTAssertThrowsError(try DotCommand.parse(["bail"]))
        XCTAssertThrowsError(try DotCommand.parse(["headers", "on", "off"]))
    }

    func testUnsafeAndUnknownCommandsAreRefused() {
        for name in ["shell", "system", "output", "once", "backup", "save", "open", "load"] {
            XCTAssertThrowsError(try DotCommand.parse([name, "x"]), name) { error in
                XCTAssertTrue((error as? DBGenError)?.code == .refused, name)
            }
        }
        XCTAssertThrowsError(try DotCommand.parse(["read", "|ls"]))
        XCTAssertThrowsError(try DotCommand.parse(["frobnicate"])) { error in
            XCTAssertTrue((error as? DBGenError)?.message.contains("unknown") ?? false)
        }
    }
}
