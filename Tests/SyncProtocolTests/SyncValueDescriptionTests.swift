import Foundation
import ShipyardTestSupport
import SyncProtocol
import XCTest

/// A text value's description is the SQL literal sqlite3 reads back as the same text, even when
/// a quote is followed by a combining mark (one Character with it, so a replacement that
/// compares Characters left it single and the literal ended early).
final class SyncValueDescriptionTests: XCTestCase {
    func testATextLiteralReadsBackAsItsTextInSqlite3() throws {
        let text = "it'\u{301}s ' ; SELECT 'injected"
        let literal = SyncValue.text(text).description
        let database = try TemporaryDirectory("syncvalue", removedAfter: self).url.appendingPathComponent("v.sqlite")
            .path
        let read = try Oracle.sqlite3Script(database, ".mode list\nSELECT hex(\(literal));\n")
        XCTAssertEqual(read, Data(text.utf8).map { String(format: "%02X", $0) }.joined() + "\n")
    }
}
