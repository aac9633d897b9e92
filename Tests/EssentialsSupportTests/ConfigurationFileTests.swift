import Foundation
import ShipyardTestSupport
@testable import ToolConfiguration
import XCTest

/// The options file reader, without Foundation's JSONSerialization: what is not JSON is told by
/// line and column, what is not an object says so, and keys are checked as before.
final class ConfigurationFileTests: XCTestCase {
    struct Settings: Decodable, Equatable {
        var strict: Bool?
        var offset: Int?
    }

    private func decode(_ text: String) throws -> Settings {
        let directory = try TemporaryDirectory("configuration", removedAfter: self)
        let path = directory.url("tool.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try ConfigurationFile.decode(
            Settings.self, at: path, displayPath: "tool.json", keys: ["strict", "offset"],
            expectations: ["strict": "true or false", "offset": "an integer"])
    }

    private func assertError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(text), file: file, line: line) {
            XCTAssertEqual(($0 as? ConfigurationFileError)?.description, expected, file: file, line: line)
        }
    }

    func testValidFilesDecode() throws {
        XCTAssertEqual(try decode("{\"strict\": true, \"offset\": 3}"), Settings(strict: true, offset: 3))
        XCTAssertEqual(try decode("\u{FEFF}{}"), Settings())
        XCTAssertEqual(try decode(" {\n \"offset\": -1e2 \n}\n"), Settings(offset: -100))
    }

    func testSyntaxErrorsNameLineAndColumn() {
        assertError(
            "{\"offset\": 1", "tool.json:1: error: not valid JSON (unexpected end of the file at line 1, column 13)")
        assertError(
            "{\n  \"strict\": tru\n}", "tool.json:2: error: not valid JSON (unexpected 't' at line 2, column 13)")
        assertError(
            "{'strict': true}",
            "tool.json:1: error: not valid JSON (expected a key in double quotes at line 1, column 2)")
        assertError(
            "{\"a\": 1} x",
            "tool.json:1: error: not valid JSON (unexpected text after the JSON value at line 1, column 10)")
        assertError(
            "{\"a\": \"\\u12\"}",
            "tool.json:1: error: not valid JSON (\\u must be followed by four hexadecimal digits at line 1, column 9)")
        assertError("", "tool.json:1: error: not valid JSON (unexpected end of the file at line 1, column 1)")
    }

    func testWhatIsNotAnObjectOrHasWrongKeysSaysSo() {
        assertError("[1]", "tool.json:1: error: expected a JSON object of options, such as {\"offset\": …}")
        assertError("1", "tool.json:1: error: expected a JSON object of options, such as {\"offset\": …}")
        assertError(
            "{\n\"strict\": true,\n\"offst\": 1}",
            "tool.json:3: error: unknown key 'offst'; the keys are offset, strict")
        assertError("{\"strict\": 1}", "tool.json:1: error: 'strict' must be true or false")
    }

    /// Every text JSONSerialization accepts, the scanner finds no error in; every text it
    /// refuses, the scanner names a place in (the oracle: Foundation's JSONSerialization).
    func testTheScannerAgreesWithJSONSerialization() {
        for text in [
            "{}", "[]", "{\"a\": [1, 2.5, -3e-2, true, false, null, \"x\\n\\u00e9\"]}", "{\"a\":{\"b\":{}}}", " [ ] ",
            "{\"a\" 1}", "{\"a\": 01}", "{\"a\": .5}", "{\"a\": 1.}", "[1,]", "{\"a\": \"\t\"}", "[\"\\x\"]", "[1 2]",
            "{\"a\": nul}", "[-]", "{\"a\": 1e}", "[\"unterminated]", "{", "}", "\"just a string\"",
        ] {
            let accepted =
                (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
            let found = JSONSyntaxError.find(in: Array(text.utf8))
            XCTAssertEqual(found == nil, accepted, "\(text): \(String(describing: found))")
        }
    }
}
