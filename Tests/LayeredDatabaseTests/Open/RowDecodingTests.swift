import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// Typed access to rows: a column as a Swift type, a row as a `Decodable`.
final class RowDecodingTests: LayeredDatabaseTestCase {
    private struct Food: Decodable, Equatable {
        let pk: Int64
        let group: Int?
        let name: String
        let desc: String?
    }

    private func database() throws -> LayeredDatabase {
        let fixture = try Fixture.make(self)
        return try LayeredDatabase(userPath: fixture.user, templatePath: fixture.template, bundledPath: fixture.bundled)
    }

    func testTypedSubscripts() throws {
        let row = try XCTUnwrap(
            try database().query(
                "SELECT pk, name, desc, 1.5 AS ratio, x'00ff' AS bytes, \"group\" FROM bundle.food WHERE pk = 2"
            ).first)
        XCTAssertEqual(try row["name", as: String.self], "Bread")
        XCTAssertEqual(try row["NAME", as: String.self], "Bread", "case-insensitive, like SQLite")
        XCTAssertEqual(try row["pk", as: Int.self], 2)
        XCTAssertEqual(try row["pk", as: Double.self], 2.0, "an INTEGER reads as a Double too")
        XCTAssertEqual(try row["ratio", as: Double.self], 1.5)
        XCTAssertEqual(try row["desc", as: String?.self], nil)
        XCTAssertEqual(try row["bytes", as: Data.self], Data([0x00, 0xff]))
        XCTAssertEqual(try row["group", as: Bool.self], true)
        XCTAssertEqual(try row[1, as: String.self], "Bread")
        XCTAssertEqual("\(try row["name", as: String.self])", "Bread", "prints as the text, not text(\"Bread\")")
    }

    func testMismatchesThrowNamingTheColumn() throws {
        let row = try XCTUnwrap(
            try database().query("SELECT pk, name, desc, 300 AS big FROM bundle.food WHERE pk = 2").first)
        for (attempt, column) in [
            ({ _ = try row["name", as: Int.self] }, "name"), ({ _ = try row["desc", as: String.self] }, "desc"),
            ({ _ = try row["big", as: UInt8.self] }, "big"), ({ _ = try row["missing", as: String.self] }, "missing"),
        ] {
            XCTAssertThrowsError(try attempt()) { error in
                XCTAssertTrue(error is DecodingError, "\(error)")
                XCTAssertTrue("\(error)".contains(column), "\(error)")
            }
        }
    }

    func testDecodingRowsIntoADecodable() throws {
        let foods = try database().query("SELECT pk, \"group\", name, desc FROM bundle.food ORDER BY pk").map {
            try $0.decode(Food.self)
        }
        XCTAssertEqual(
            foods,
            [
                Food(pk: 1, group: 10, name: "Apple", desc: "fruit"), Food(pk: 2, group: 20, name: "Bread", desc: nil),
                Food(pk: 3, group: 10, name: "Pear", desc: "fruit"),
            ])
        // A missing optional column is nil; a missing required one throws.
        XCTAssertEqual(
            try database().query("SELECT pk, name FROM bundle.food WHERE pk = 1")[0].decode(Food.self),
            Food(pk: 1, group: nil, name: "Apple", desc: nil))
        XCTAssertThrowsError(try database().query("SELECT pk FROM bundle.food WHERE pk = 1")[0].decode(Food.self))
    }
}
