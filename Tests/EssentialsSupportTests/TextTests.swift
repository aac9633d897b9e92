import EssentialsSupport
import Foundation
import XCTest

/// The text helpers give what the Foundation API they replace gives (the oracle: Foundation).
final class TextTests: XCTestCase {
    /// Every scalar Unicode calls white space, every line break, and neighbours that are not.
    static let edges: [Unicode.Scalar] =
        (0x00...0x40).compactMap(Unicode.Scalar.init) + [
            "\u{85}", "\u{A0}", "\u{1680}", "\u{180E}", "\u{2000}", "\u{2007}", "\u{200A}", "\u{200B}", "\u{2028}",
            "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}", "\u{301}", "é", "\u{1F44D}",
        ]

    func testTrimmingMatchesCharacterSets() {
        for first in Self.edges {
            for last in Self.edges {
                for middle in ["", "x", " y z ", "\u{301}"] {
                    let text = String(first) + middle + String(last)
                    XCTAssertEqual(
                        text.trimmingWhitespaceAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines),
                        "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
                    XCTAssertEqual(text.trimmingNewlines(), text.trimmingCharacters(in: .newlines))
                    XCTAssertEqual(text.trimmingSpacesAndTabs(), text.trimmingCharacters(in: .whitespaces))
                }
            }
        }
    }

    func testReplacingEveryMatchesReplacingOccurrences() {
        for (text, target, replacement) in [
            ("a\"b\"\"c", "\"", "\"\""), ("it's", "'", "''"), ("", "'", "''"), ("x,\ny,\nz", ",\n", ", "),
            ("aaaa", "aa", "b"), ("é'é", "'", "''"), ("no match", "q", "r"), ("'", "'", ""),
        ] {
            XCTAssertEqual(
                text.replacingEvery(target, with: replacement), text.replacingOccurrences(of: target, with: replacement)
            )
        }
        // SQL quoting doubles every quote byte, even one a combining accent follows.
        XCTAssertEqual("a\"\u{301}b".replacingEvery("\"", with: "\"\""), "a\"\"\u{301}b")
    }

    func testPrintfFormatMatchesStringFormat() {
        for value in [0.0, -0.0, 1.5, 1e300, 123456789.123456789, 0.1, -2.5e-310, 3.0] {
            for format in ["%.15g", "%.17e", "%.2f", "%g", "%.0f seconds", "%.1f"] {
                XCTAssertEqual(PrintfFormat.string(format, value), String(format: format, value), "\(format) \(value)")
            }
        }
        for byte in [UInt8(0), 9, 10, 0x7F, 0xFF] {
            XCTAssertEqual(PrintfFormat.string("%%%02X", byte), String(format: "%%%02X", byte))
            XCTAssertEqual(PrintfFormat.string("%02x", byte), String(format: "%02x", byte))
        }
        // Longer than the first buffer.
        XCTAssertEqual(PrintfFormat.string("%.200f", 1.0), String(format: "%.200f", 1.0))
    }

    func testRangeOfTextMatchesRangeOf() {
        for (text, target) in [
            ("a */ b */", "*/"), ("nothing", "*/"), ("", "x"), ("xx", "xxx"), ("ééé", "é"), ("usage: x", "usage"),
            ("aab", "ab"), ("/*\u{301}*/", "*/"),
        ] {
            let ours = text.range(ofText: target).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
            let theirs = text.range(of: target).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
            XCTAssertEqual(ours, theirs, "\(text) / \(target)")
        }
    }

    func testPercentDecodedMatchesRemovingPercentEncoding() {
        for text in ["a%20b", "%41%62", "%e2%82%ac", "100%", "%4", "%zz", "%FF", "plain", "", "%2F..%2f", "%C3%A9x"] {
            XCTAssertEqual(text.percentDecoded, text.removingPercentEncoding, text)
        }
    }

    func testPrefixIgnoringASCIICase() {
        XCTAssertTrue("create virtual table t".hasPrefixIgnoringASCIICase("CREATE VIRTUAL"))
        XCTAssertTrue("CrEaTe VIRTUAL".hasPrefixIgnoringASCIICase("CREATE VIRTUAL"))
        XCTAssertFalse("CREATE TABLE".hasPrefixIgnoringASCIICase("CREATE VIRTUAL"))
        XCTAssertFalse("CREATE".hasPrefixIgnoringASCIICase("CREATE VIRTUAL"))
        XCTAssertFalse(" CREATE VIRTUAL".hasPrefixIgnoringASCIICase("CREATE VIRTUAL"))
    }

    func testFileErrorsReadAsPathAndReason() {
        XCTAssertThrowsError(
            try FileManager.default.createDirectory(atPath: "/proc/no/such", withIntermediateDirectories: true)
        ) {
            XCTAssertTrue($0.readableDescription.contains("No such file or directory"), $0.readableDescription)
        }
    }
}
