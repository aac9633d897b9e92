import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// `Connection.program(of:)`: a statement's program as sqlite3's `EXPLAIN` lists it.
final class ProgramInstructionTests: XCTestCase {
    func testProgramIsTheOneSqlite3Explains() throws {
        let directory = try TemporaryDirectory("program", removedAfter: self)
        let path = directory.url("p.db").path
        let schema =
            "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, x NOT NULL ON CONFLICT FAIL, "
            + "y UNIQUE ON CONFLICT ROLLBACK, z DEFAULT 'a|b');"
        _ = try Oracle.sqlite3Script(path, schema)
        let db = try Connection(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro")]))
        let insert = "INSERT INTO t VALUES(?, ?, ?, ?)"
        let program = try db.program(of: insert)
        let listing = try Oracle.sqlite3Script(path, ".explain off\n.mode list\n.separator |\nEXPLAIN \(insert);\n")
        let expected = listing.split(separator: "\n").map { line -> [String] in
            Array(line.split(separator: "|", omittingEmptySubsequences: false).prefix(7).map(String.init))
        }
        XCTAssertEqual(
            program.map {
                [
                    String($0.address), $0.opcode, String($0.p1), String($0.p2), String($0.p3),
                    $0.p4 ?? "", String($0.p5),
                ]
            }, expected)
        // What SQLite's program settles: the conflict clauses (OE_Fail = 3, OE_Rollback = 1) and
        // AUTOINCREMENT (NewRowid's P3 holds the largest rowid sqlite_sequence had).
        XCTAssertTrue(program.contains { $0.opcode == "HaltIfNull" && $0.p2 == 3 })
        XCTAssertTrue(program.contains { $0.opcode == "Halt" && $0.p2 == 1 })
        XCTAssertTrue(program.contains { $0.opcode == "NewRowid" && $0.p3 != 0 })
    }

    func testProgramOfAStatementThatDoesNotCompileThrows() throws {
        let db = try Connection(uri: "file::memory:")
        XCTAssertThrowsError(try db.program(of: "INSERT INTO missing VALUES(1)")) { error in
            XCTAssertEqual((error as? SQLiteError)?.resultCode, .SQLITE_ERROR)
        }
    }
}
