@testable import FileSystemKit
import ShipyardTestSupport
import XCTest

/// ``LexicalPath/normalized(_:)`` against python3's `posixpath.normpath` (which keeps a leading
/// `//` as POSIX allows; the cases here start with one slash or none).
final class LexicalPathTests: XCTestCase {
    func testNormalizedIsWhatNormpathSays() throws {
        let paths = [
            "a/./b/../c", "/a/./b/../c", "a/b/..", "a/..", "..", "../..", "../a/../b", "a/../../b",
            "/..", "/../a", "/a/../..", "/", ".", "./", "a//b/", "/a//b//", "a/b/c/../../..", "x/./.././y",
            "/usr/./lib/../bin/", "é/ü/../ß", "a/.../b", "..a/b..", "a/.b/./c",
        ]
        let script = "import posixpath, sys\nfor p in sys.argv[1:]: print(posixpath.normpath(p))"
        let expected = try Oracle.python3.output(["-c", script] + paths)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(paths.map(LexicalPath.normalized), expected)
    }

    func testAbsolutePathsStayAbsoluteAndRelativeOnesNeverBecomeEmpty() {
        XCTAssertEqual(LexicalPath.normalized("/../../"), "/")
        XCTAssertEqual(LexicalPath.normalized("a/.."), ".")
        XCTAssertEqual(LexicalPath.normalized(""), ".")
    }
}
