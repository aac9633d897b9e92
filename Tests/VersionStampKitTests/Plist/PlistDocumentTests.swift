import XCTest
@testable import VersionStampKit

final class PlistKeyPathTests: XCTestCase {
    func testParsesPlistBuddyPaths() throws {
        XCTAssertEqual(try PlistKeyPath(parsing: "CFBundleVersion").components, ["CFBundleVersion"])
        XCTAssertEqual(try PlistKeyPath(parsing: ":CFBundleVersion").components, ["CFBundleVersion"])
        XCTAssertEqual(try PlistKeyPath(parsing: "Parent:Child:0").components, ["Parent", "Child", "0"])
        XCTAssertEqual(try PlistKeyPath(parsing: "a\\:b:c\\\\").components, ["a:b", "c\\"])
    }

    func testDescriptionRoundTrips() throws {
        for text in ["CFBundleVersion", "Parent:Child:0", "a\\:b:c\\\\"] {
            XCTAssertEqual(try PlistKeyPath(parsing: text).description, text)
        }
        XCTAssertEqual(PlistKeyPath(components: []).description, ":")
    }

    func testEmptyComponentsAreRefused() {
        for text in ["", ":", "a::b", "a:"] {
            XCTAssertThrowsError(try PlistKeyPath(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains("invalid key path"), "\(error)")
            }
        }
    }

    func testLookupIntoDictionariesAndArrays() throws {
        let bytes = Array(
            """
            <plist><dict><key>A</key><array><string>x</string><dict><key>0</key><string>y</string></dict></array>\
            <key>N</key><integer>1</integer></dict></plist>
            """.utf8)
        let root = try PlistXMLEditor(bytes: bytes, path: "t.plist").root
        guard case let .found(x) = root.lookup(try PlistKeyPath(parsing: "A:0")) else { return XCTFail() }
        XCTAssertEqual(x.value, "x")
        guard case let .found(y) = root.lookup(try PlistKeyPath(parsing: "A:1:0")) else { return XCTFail() }
        XCTAssertEqual(y.value, "y")
        guard case .missing(let parent, "2", "array", _) = root.lookup(try PlistKeyPath(parsing: "A:2")) else {
            return XCTFail()
        }
        XCTAssertEqual(parent.description, "A")
        guard case .notString("integer", _) = root.lookup(try PlistKeyPath(parsing: "N")) else { return XCTFail() }
    }
}
