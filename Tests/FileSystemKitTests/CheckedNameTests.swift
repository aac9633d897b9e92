import XCTest

@testable import FileSystemKit

/// The checked names a string from metadata must become to name a file.
final class CheckedNameTests: XCTestCase {
    func testAPathComponentIsOneNameInADirectory() throws {
        for name in ["a", "file.txt", "..a", "a..", "...", "é", String(repeating: "x", count: 255), "-", " "] {
            XCTAssertEqual(try PathComponent(name).name, name)
        }
        let refused: [(String, String)] = [
            ("", "is empty"), (".", "is ., a directory, not a name"), ("..", "is .., a directory, not a name"),
            ("a/b", "holds a /"), ("/", "holds a /"), ("a\u{0}b", "holds a NUL byte"),
            ("a\nb", "holds a control character"),
            ("a\u{7F}", "holds a control character"),
            (String(repeating: "é", count: 128), "is 256 bytes long, more than the 255 a name may be"),
        ]
        for (name, reason) in refused {
            XCTAssertThrowsError(try PathComponent(name), name.debugDescription) { error in
                XCTAssertEqual(error as? CheckedNameError, CheckedNameError(name, reason))
            }
        }
    }

    func testARelativePathIsCheckedNames() throws {
        XCTAssertEqual(
            try RelativePath("releases/a.sqlite.zlib").components.map(\.name), ["releases", "a.sqlite.zlib"])
        XCTAssertEqual(try RelativePath("a/b").under("/feed"), "/feed/a/b")
        XCTAssertEqual(try RelativePath("a/b").under("/feed/"), "/feed/a/b")
        for path in [
            "", "/a", "a/", "a//b", "a/../b", "../a", "./a", "a/\u{0}", String(repeating: "a/", count: 600) + "a",
        ] {
            XCTAssertThrowsError(try RelativePath(path), path.debugDescription) { error in
                XCTAssertEqual((error as? CheckedNameError)?.value, path)
            }
        }
    }

    func testASHA256DigestIs64HexadecimalDigits() throws {
        let upper = String(repeating: "AB", count: 32)
        XCTAssertEqual(try SHA256Digest(upper).hex, upper.lowercased())
        XCTAssertEqual(try SHA256Digest(upper).fileName(".partial").name, upper.lowercased() + ".partial")
        for text in [
            "", String(repeating: "a", count: 63), String(repeating: "a", count: 65), String(repeating: "g", count: 64),
            "../" + String(repeating: "a", count: 61), String(repeating: "a", count: 63) + "\u{0}",
        ] {
            XCTAssertThrowsError(try SHA256Digest(text), text.debugDescription)
        }
    }

    func testTheErrorShowsTheValueEscapedAndCut() {
        XCTAssertEqual(CheckedNameError("a\u{0}\n", "holds a NUL byte").description, #""a\0\n" holds a NUL byte"#)
        XCTAssertEqual(
            CheckedNameError(String(repeating: "x", count: 150), "is long").description,
            "\"" + String(repeating: "x", count: 100) + "…\" is long")
    }
}
