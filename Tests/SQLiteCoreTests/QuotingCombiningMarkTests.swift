import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// A quote followed by a combining mark (`"\u{301}`) is one grapheme cluster with it, so a
/// replacement that compares Characters (Foundation's `replacingOccurrences`) does not double
/// it: the quoted name ended there and the rest of the name was read as SQL. Every quoting of
/// the project doubles by scalar; sqlite3 is the oracle of what the quoted text names.
final class QuotingCombiningMarkTests: XCTestCase {
    static let hostile = "a\"\u{301}) ; DROP TABLE victim; --"
    static let hostileLiteral = "a'\u{301}' ; DROP TABLE victim; --"

    func testAQuotedIdentifierNamesExactlyItsTextWhateverFollowsTheQuote() throws {
        let path = try TemporaryDirectory("quoting", removedAfter: self).url.appendingPathComponent("q.sqlite").path
        let db = try Connection(path: path, create: true)
        try db.execute("CREATE TABLE victim (x); CREATE TABLE t (\(SQLIdentifier.quote(Self.hostile)))")
        XCTAssertEqual(try db.query("SELECT name FROM pragma_table_info('t')").map { $0[0] }, [.text(Self.hostile)])
        XCTAssertEqual(
            try Oracle.sqlite3Script(path, "SELECT count(*) FROM sqlite_master WHERE name = 'victim';"), "1\n")
    }

    func testAQuotedLiteralIsExactlyItsText() throws {
        let path = try TemporaryDirectory("quoting", removedAfter: self).url.appendingPathComponent("q.sqlite").path
        let db = try Connection(path: path, create: true)
        let value = try db.query("SELECT \(SQLIdentifier.quoteLiteral(Self.hostileLiteral))").map { $0[0] }
        XCTAssertEqual(value, [.text(Self.hostileLiteral)])
    }

    func testDoublingIsByScalar() {
        XCTAssertEqual(SQLIdentifier.doubling("\"", in: "\"\u{301}\""), "\"\"\u{301}\"\"")
        XCTAssertEqual(SQLIdentifier.doubling("'", in: "é'"), "é''")
    }
}
