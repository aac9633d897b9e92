import Foundation
import TUF
import XCTest

/// The parser keeps what it received and refuses what is not strict JSON.
final class JSONParserTests: XCTestCase {
    private func reason(_ text: String) -> String? {
        do {
            _ = try JSONParser().parse(Data(text.utf8))
            return nil
        } catch {
            return (error as? JSONParseError)?.reason
        }
    }

    func testMembersKeepTheirOrderAndNumbersTheirText() throws {
        let value = try JSONParser().parse(Data(#"{"z": 1, "a": 18446744073709551616, "m": -2.5e3}"#.utf8))
        let object = try XCTUnwrap(value.objectValue)
        XCTAssertEqual(object.keys, ["z", "a", "m"])
        XCTAssertEqual(object["z"], .integer(1))
        XCTAssertEqual(object["a"], .number("18446744073709551616"))
        XCTAssertEqual(object["m"], .number("-2.5e3"))
    }

    func testStrictJSONIsRequired() {
        XCTAssertEqual(reason(#"{"a": 1, "a": 2}"#), "duplicate member \"a\"")
        XCTAssertEqual(reason("[1] x"), "data after the JSON value")
        XCTAssertEqual(reason("[01]"), "expected ',' or ']'")
        XCTAssertEqual(reason("[NaN]"), "unexpected character")
        XCTAssertEqual(reason(#"["\ud800"]"#), "lone surrogate")
        XCTAssertEqual(reason("[\"a\u{1}\"]"), "control character in a string")
        XCTAssertEqual(reason("{\"a\": 1,}"), "expected a member name")
    }

    func testInvalidUTF8IsRefused() {
        let bytes = Data([UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")])
        XCTAssertThrowsError(try JSONParser().parse(bytes)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "invalid UTF-8 in a string")
        }
    }

    func testSizeLimitIsCheckedFirst() {
        XCTAssertThrowsError(try JSONParser(maximumBytes: 4).parse(Data("[1,2]".utf8))) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "5 bytes, more than the limit of 4")
        }
    }

    func testExpiryIsReadAndWrittenInTUFsForm() {
        XCTAssertEqual(Expiry.parse("2030-01-01T00:00:00Z"), Date(timeIntervalSince1970: 1_893_456_000))
        XCTAssertEqual(Expiry.format(Date(timeIntervalSince1970: 1_893_456_000)), "2030-01-01T00:00:00Z")
        XCTAssertEqual(Expiry.parse("2024-02-29T23:59:59Z"), Date(timeIntervalSince1970: 1_709_251_199))
        for invalid in [
            "2023-02-29T00:00:00Z", "2030-01-01T00:00:00", "2030-01-01 00:00:00Z", "2030-01-01T24:00:00Z",
            "2030-01-01T00:00:00.5Z", "2030-1-01T00:00:00Z",
        ] {
            XCTAssertNil(Expiry.parse(invalid), invalid)
        }
    }
}
