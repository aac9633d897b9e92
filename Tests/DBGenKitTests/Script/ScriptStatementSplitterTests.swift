import XCTest
@testable import DBGenKit

/// The splitter groups lines as the sqlite3 3.40 shell's `process_input` does.
final class ScriptStatementSplitterTests: XCTestCase {
    private func items(_ script: String) -> [ScriptItem] {
        Array(ScriptReader(Array(script.utf8)))
    }

    private func sqlTexts(_ script: String) -> [String] {
        items(script).compactMap { item in
            if case .sql(let chunk, _) = item { return chunk.string }
            return nil
        }
    }

    func testSemicolonsInsideStringsAndIdentifiersDoNotEndStatements() {
        let script = "INSERT INTO t VALUES('a;\nb', \"x;y\", [z;], `w;`);\nSELECT 1;\n"
        XCTAssertEqual(sqlTexts(script), ["INSERT INTO t VALUES('a;\nb', \"x;y\", [z;], `w;`);", "SELECT 1;"])
    }

    func testDoubledQuotesStayInsideTheString() {
        XCTAssertEqual(sqlTexts("SELECT 'it''s;\n';\n"), ["SELECT 'it''s;\n';"])
    }

    func testCommentsOfEachKind() {
        let script = """
            -- a line comment; with a semicolon
            /* a block
               comment; */
            SELECT 1; -- trailing; comment
            SELECT /* inline; */ 2;
            # a hash line
            SELECT 3 -- no end here;
            ;
            """
        XCTAssertEqual(
            sqlTexts(script),
            [
                "SELECT 1; -- trailing; comment",
                "SELECT /* inline; */ 2;",
                "SELECT 3 -- no end here;\n;",
            ])
    }

    func testTriggerBodyIsOneStatement() {
        let script = """
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN
              INSERT INTO u VALUES(1);
              UPDATE u SET x = 2;
            END;
            SELECT 1;
            """
        let texts = sqlTexts(script)
        XCTAssertEqual(texts.count, 2)
        XCTAssertTrue(texts[0].hasSuffix("END;"))
    }

    func testDotCommandsOnlyAtLineStartWithNothingPending() {
        let script = "SELECT 1,\n.mode csv\n;\n .mode list\n.separator |\n"
        let result = items(script)
        XCTAssertEqual(result.count, 2)
        if case .sql(let chunk, _) = result[0] {
            XCTAssertEqual(chunk.string, "SELECT 1,\n.mode csv\n;")
        } else {
            XCTFail("expected SQL first")
        }
        // " .mode list" (indented) is SQL text, pending at end of input; ".separator" then joins it.
        if case .sql(let chunk, let complete) = result[1] {
            XCTAssertEqual(chunk.string, ".mode list\n.separator |")
            XCTAssertFalse(complete)
        } else {
            XCTFail("expected pending SQL")
        }
    }

    func testDotCommandLineNumbers() {
        let result = items("\n-- x\n.mode csv\nSELECT 1;\n.import a b\n")
        XCTAssertEqual(result.first, .dotCommand(".mode csv", line: 3))
        XCTAssertEqual(result.last, .dotCommand(".import a b", line: 5))
    }

    func testCRLFLinesAreStripped() {
        XCTAssertEqual(sqlTexts("SELECT 1,\r\n 2;\r\n"), ["SELECT 1,\n 2;"])
        XCTAssertEqual(items(".mode csv\r\n"), [.dotCommand(".mode csv", line: 1)])
    }

    func testSlashAndGoLinesTerminateAStatement() {
        XCTAssertEqual(sqlTexts("SELECT 1\ngo\nSELECT 2\n /\n"), ["SELECT 1\n;", "SELECT 2\n;"])
    }

    func testUnterminatedStatementIsReportedIncomplete() {
        let result = items("CREATE TABLE t(a);\nINSERT INTO t VALUES(1)\n")
        XCTAssertEqual(result.count, 2)
        if case .sql(let chunk, let complete) = result[1] {
            XCTAssertFalse(complete)
            XCTAssertEqual(chunk.lines.first?.line, 2)
        } else {
            XCTFail()
        }
    }

    func testPositionMapsBytesToLineAndCharacterColumn() {
        let result = items("  SELECT 'é',\n    x y;\n")
        guard case .sql(let chunk, _) = result[0] else { return XCTFail() }
        XCTAssertEqual(chunk.string, "SELECT 'é',\n    x y;")
        // "SELECT" starts at column 3 of line 1 (two spaces were removed).
        XCTAssertEqual(chunk.position(ofByte: 0).line, 1)
        XCTAssertEqual(chunk.position(ofByte: 0).column, 3)
        // "y" on line 2, column 7; the é before it is two bytes but one column.
        let yOffset = Array(chunk.text).lastIndex(of: UInt8(ascii: "y"))!
        XCTAssertEqual(chunk.position(ofByte: yOffset).line, 2)
        XCTAssertEqual(chunk.position(ofByte: yOffset).column, 7)
        let quoteOffset = Array(chunk.text).lastIndex(of: UInt8(ascii: "'"))!
        XCTAssertEqual(chunk.position(ofByte: quoteOffset).column, 12)
    }

    func testWhitespaceOnlyAndSemicolonOnlyLinesAreDropped() {
        XCTAssertEqual(items("   \n;\n  ;  \n/* c */\n"), [])
    }
}
