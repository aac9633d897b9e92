import ShipyardTestSupport
import XCTest

/// The file-system layer's boundary, read from the sources: durability and locking differ on
/// Apple platforms (`fsync` leaves data in the drive's cache, `F_FULLFSYNC` does not; `flock`
/// and SQLite's `fcntl` locks collide in one list per file), so only FileSystemKit syncs,
/// locks or renames into place, and every other target goes through it. Linux cannot show the
/// Darwin behaviour; this check keeps a second, Linux-only way of doing it from appearing.
final class FileSystemBoundaryTests: XCTestCase {
    /// The system calls that sync, lock or replace a file.
    static let calls = "(?:fsync|fdatasync|flock|lockf|fcntl|rename|renameat|renamex_np)"

    func testOnlyFileSystemKitSyncsLocksOrRenames() throws {
        var problems: [String] = []
        for file in try SwiftSourceScanner.files(under: "Sources") where !file.path.hasPrefix("Sources/FileSystemKit/")
        {
            for call in SwiftSourceScanner.calls(matching: Self.calls, in: file) {
                problems.append("\(file.location(call.offset)): calls \(call.name) outside FileSystemKit")
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// The check sees a call where one is, and not in comments or method names.
    func testTheCheckFindsACall() {
        let file = SwiftSourceScanner.File(
            path: "Snippet.swift",
            code: SwiftSourceScanner.codeOnly(
                Array("// fsync(fd)\nlet r = fsync(fd); handle.renameFile()\n_ = flock(fd, LOCK_EX)".utf8)))
        XCTAssertEqual(SwiftSourceScanner.calls(matching: Self.calls, in: file).map(\.name), ["fsync", "flock"])
    }
}
