import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

@testable import LayeredDatabase

/// ``StatementBoundary`` answers what `sqlite3_complete` (the oracle: the linked SQLite's own)
/// answers, after every byte of generated SQL made of the pieces that move its state machine.
final class StatementBoundaryTests: XCTestCase {
    private static let pieces: [String] = [
        ";", " ", "\n", "\r\n", "\r", "\t", "\u{0C}", "\u{0B}", "/*", "*/", "*", "/", "--", "-", "'", "\"", "`", "[",
        "]", "x", "create", "CREATE", "Create", "temp", "TEMPORARY", "trigger", "TRIGGER", "end", "END", "explain",
        "EXPLAIN", "begin", "select 1", "creates", "ending", "_end", "$end", "end$", "é", "end\u{E9}", "temporary1",
        "tempo", "t", "e", "c", "(", ")", ",", "0", "9end", "[end]", "'end'", "\"trigger\"", "\u{1F600}",
    ]

    private static func sqliteComplete(_ bytes: [UInt8]) -> Bool { SQLiteLibrary.isComplete(bytes) }

    func testAgreesWithSQLiteAfterEveryByte() {
        var random = SeededGenerator(seed: 0x5EED_CAFE)
        var checked = 0
        for round in 0..<3_000 {
            let text = (0..<Int.random(in: 1...24, using: &random)).map { _ in
                Self.pieces.randomElement(using: &random)!
            }.joined()
            var boundary = StatementBoundary()
            var fed: [UInt8] = []
            for byte in text.utf8 {
                boundary.feed(byte)
                fed.append(byte)
                let expected = Self.sqliteComplete(fed)
                XCTAssertEqual(
                    boundary.isComplete, expected,
                    "round \(round): \(String(decoding: fed, as: UTF8.self).debugDescription)")
                if boundary.isComplete != expected { return }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 50_000)
    }

    func testTriggerBodiesRunToTheirEnd() {
        let cases: [(String, Bool)] = [
            ("CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1;", false),
            ("CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; END;", true),
            ("CREATE TEMP TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; END", false),
            ("create temporary trigger t after insert on a begin select 1; end ;", true),
            ("EXPLAIN CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; END;", true),
            ("CREATE TABLE end(x);", true),
            ("SELECT 'unterminated;", false),
            ("SELECT 1; -- done", true),
            ("SELECT 1; /* open", false),
        ]
        for (sql, complete) in cases {
            var boundary = StatementBoundary()
            for byte in sql.utf8 { boundary.feed(byte) }
            XCTAssertEqual(boundary.isComplete, complete, sql)
            XCTAssertEqual(Self.sqliteComplete(Array(sql.utf8)), complete, "the oracle: \(sql)")
        }
    }
}
