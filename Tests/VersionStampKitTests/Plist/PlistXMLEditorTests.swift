import XCTest
@testable import VersionStampKit

/// The raw content written for a changed string: only the token's bytes when possible,
/// otherwise the whole value escaped; values XML cannot hold are refused.
final class PlistXMLEditorTests: XCTestCase {
    private func stamp(_ content: String, token: String = "r0000", value: String) throws -> String {
        let document = "<plist><dict><key>K</key><string>\(content)</string></dict></plist>"
        let editor = try PlistXMLEditor(bytes: Array(document.utf8), path: "t.plist")
        guard case let .found(string) = editor.root.lookup(PlistKeyPath(components: ["K"])) else {
            XCTFail("no K")
            return ""
        }
        let newValue = string.value.replacingBytes(of: token, with: value)
        let output = String(decoding: try editor.applying([PlistStringEdit(slot: string.slot, newValue: newValue, placeholder: (token, value))]), as: UTF8.self)
        let prefix = "<plist><dict><key>K</key><string>", suffix = "</string></dict></plist>"
        XCTAssertTrue(output.hasPrefix(prefix) && output.hasSuffix(suffix), output)
        return String(output.dropFirst(prefix.count).dropLast(suffix.count))
    }

    func testOnlyTheTokenBytesChangeWhenPossible() throws {
        XCTAssertEqual(try stamp("a &gt; r0000 &#169; &amp; r0000 > x", value: "12M"), "a &gt; 12M &#169; &amp; 12M > x")
        XCTAssertEqual(try stamp("r0000<!-- r0000 -->", value: "5"), "5<!-- r0000 -->")
    }

    func testFallsBackToTheEscapedValue() throws {
        // The token is written with a character reference: the whole value is rewritten.
        XCTAssertEqual(try stamp("r&#48;000 &amp; x", value: "7"), "7 &amp; x")
        XCTAssertEqual(try stamp("<![CDATA[a<r0000>]]>", value: "7"), "a&lt;7&gt;")
        XCTAssertEqual(try stamp("r0000", value: "a&b\r\n"), "a&amp;b&#13;\n")
    }

    func testControlCharactersAreRefused() {
        XCTAssertThrowsError(try stamp("r0000", value: "bell\u{7}")) { error in
            XCTAssertTrue("\(error)".contains("U+7"), "\(error)")
        }
    }

    func testScannerAndLibXML2MustAgree() throws {
        // Attributes holding '>' and quotes, comments with markup, CDATA: scanned ranges still match.
        let document = """
        <?xml version='1.0' encoding='utf-8'?>
        <plist version="1.0" note='a > b "c"'><dict><key a=">">K</key><!-- <string>fake</string> -->\
        <string><![CDATA[x]]>y</string></dict></plist>
        """
        let editor = try PlistXMLEditor(bytes: Array(document.utf8), path: "t.plist")
        guard case let .found(string) = editor.root.lookup(PlistKeyPath(components: ["K"])) else { return XCTFail() }
        XCTAssertEqual(string.value, "xy")
        let output = String(decoding: try editor.applying([PlistStringEdit(slot: string.slot, newValue: "z")]), as: UTF8.self)
        XCTAssertEqual(output, document.replacingOccurrences(of: "<string><![CDATA[x]]>y</string>", with: "<string>z</string>"))
    }
}
