import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// The canonical JSON TUF signs, compared byte for byte with securesystemslib's `encode_canonical`.
final class CanonicalJSONTests: XCTestCase {
    static let documents = [
        #"{"b": 1, "a": [true, false, null], "A": {}, "é": "x", "Z": "é", "": 0}"#,
        #"{"quote": "say \"hi\"", "backslash": "a\\b", "slash": "a\/b", "controls": "\n\t\r\b\f\u0001\u001f"}"#,
        #"{"unicode": "\u00e9\u4e2d\ud83d\ude00", "#
            + #""keys": {"\u00e9": 1, "e": 2, "f": 3, "\ud83d\ude00": 4, "\uffff": 5}}"#,
        #"{"big": 18446744073709551616, "negative": -9223372036854775808, "max": 9223372036854775807, "zero": -0}"#,
        #"[[], {}, [[[]]], "", 0, -1, 1234567890]"#,
        #"{"signed": {"_type": "root", "version": 1, "#
            + #""keys": {"ab": {"keytype": "ed25519", "keyval": {"public": "00"}}}}}"#,
    ]

    func testCanonicalFormIsSecuresystemslibs() throws {
        let script = """
            import json, sys
            from securesystemslib.formats import encode_canonical
            for line in sys.stdin.read().split("\\n\\x00\\n"):
                sys.stdout.write(encode_canonical(json.loads(line)) + "\\n\\x00\\n")
            """
        let input = Data(Self.documents.joined(separator: "\n\u{0}\n").utf8)
        let expected = try PythonTUF.run(script, input: input).components(separatedBy: "\n\u{0}\n").dropLast()
        XCTAssertEqual(expected.count, Self.documents.count)
        for (document, pythonOutput) in zip(Self.documents, expected) {
            let canonical = try CanonicalJSON.encode(try JSONParser().parse(Data(document.utf8)))
            XCTAssertEqual(String(decoding: canonical, as: UTF8.self), pythonOutput, document)
        }
    }

    func testFractionsAndExponentsHaveNoCanonicalForm() throws {
        for number in ["1.5", "1e3", "-0.0"] {
            XCTAssertThrowsError(try CanonicalJSON.encode(try JSONParser().parse(Data("[\(number)]".utf8)))) { error in
                XCTAssertEqual(error as? CanonicalJSON.EncodingError, CanonicalJSON.EncodingError(number: number))
            }
        }
    }
}
