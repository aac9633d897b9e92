import Foundation
@testable import VersionStampKit
import XCTest

/// Commit headers read as git's `parse_commit_buffer` / `parse_commit_date` read them: the
/// date orders every walk (describe, ranges), so odd headers must give git's date.
final class CommitHeaderTests: XCTestCase {
    private let tree = String(repeating: "a", count: 40)
    private let parent = String(repeating: "b", count: 40)

    private func parse(_ text: String, whole: Bool = true) throws -> CommitHeader? {
        let bytes = Array(text.utf8)
        let id = ObjectID(bytes: [UInt8](repeating: 0, count: 20))
        return try bytes.withUnsafeBufferPointer { try CommitHeader($0, id: id, isWhole: whole, needsDate: true) }
    }

    func testDates() throws {
        let head = "tree \(tree)\nparent \(parent)\n"
        XCTAssertEqual(
            try parse(head + "author A <a@x> 1 +0000\ncommitter C <c@x> 1700000000 +0100\n\nmsg\n")?.date, 1_700_000_000
        )
        XCTAssertEqual(try parse(head + "author A <a@x> 1 +0000\ncommitter C <c@x> 42 +0100\n\nmsg\n")?.parentCount, 1)
        // The first '>' of the committer line, as git.
        XCTAssertEqual(try parse(head + "author A <a@x> 1 +0000\ncommitter C <c>x> 77 +0000\n\n")?.date, 0)
        XCTAssertEqual(try parse(head + "author A <a@x> 1 +0000\ncommitter C <c@x>   +55 +0000\n\n")?.date, 55)
        // No author line first, or no committer line next: date 0.
        XCTAssertEqual(try parse(head + "committer C <c@x> 9 +0000\n\n")?.date, 0)
        XCTAssertEqual(try parse(head + "author A <a@x> 1 +0000\nencoding x\ncommitter C <c@x> 9 +0000\n\n")?.date, 0)
        // git needs a byte after the committer line.
        XCTAssertEqual(try parse(head + "author A <a@x> 1 +0000\ncommitter C <c@x> 9 +0000\n")?.date, 0)
        XCTAssertEqual(try parse("tree \(tree)\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 5 +0000\n\n")?.parentCount, 0)
    }

    /// Bytes cut short (a partial read) ask for more instead of guessing.
    func testPartialReads() throws {
        let text =
            "tree \(tree)\nparent \(parent)\nparent \(parent)\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1700000000 +0100\n\nmsg\n"
        for cut in [30, 60, 100, 140, 160, 200] {
            XCTAssertNil(try parse(String(text.prefix(cut)), whole: false), "cut at \(cut)")
        }
        XCTAssertEqual(try parse(String(text.prefix(text.utf8.count - 3)), whole: false)?.date, 1_700_000_000)
        XCTAssertThrowsError(try parse("tree nothex\n"))
    }
}
