import EssentialsSupport
import Foundation
import ShipyardTestSupport
import XCTest

/// PathText gives what NSString's path API gives: the oracle is Foundation itself, which these
/// tests link (the tools no longer do). On Linux that is swift-corelibs-foundation, whose
/// results the tools had before; on Apple platforms PathText calls NSString.
final class PathTextTests: XCTestCase {
    /// Paths of every shape: empty, root, runs of slashes, trailing slashes, `.` and `..`,
    /// hidden files, extensions, `~`, `/private` and `/var/automount`, combining accents.
    static let shapes = [
        "/", "", "//", "a/", "/a", "a//b/", "ab", "~", "~/x", "~/", "~root/x/", "~nosuchuser/x/", "/tmp/../etc",
        "x/../y", "/private/tmp", "/a/./b", "./a", "../a", "a/..", "/..", "/a/b/..", ".profile", "a.b.c", "a.",
        "a..", "...", "..", ".", "/a/.hidden", "/a/b.tar.gz/", "x/y.z", "/var/automount/tmp", "\u{301}/x",
        "a/\u{301}", "dir/é.csv", "/a b/c d.txt",
    ]

    /// corelibs' deletingLastPathComponent traps when the path, its slashes fixed, is one
    /// character other than `/` (`a`, `a/`, `.`); PathText gives `` there, as Apple's NSString.
    static func trapsInCorelibs(_ path: String) -> Bool {
        var fixed = path
        while fixed.contains("//") { fixed = fixed.replacingOccurrences(of: "//", with: "/") }
        if fixed.count > 1, fixed.hasSuffix("/") { fixed.removeLast() }
        return fixed.utf16.count == 1 && fixed != "/"
    }

    func testEveryFunctionAgreesWithNSString() throws {
        let directory = try TemporaryDirectory("pathtext", removedAfter: self)
        let base = directory.path
        try FileManager.default.createDirectory(atPath: base + "/dir/sub", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: base + "/dir/f.csv", contents: Data())
        // Links of every kind: relative (which corelibs resolves from the current directory),
        // absolute, through `..`, a chain, and one that points nowhere.
        for (link, destination) in [
            ("linkdir", "dir"), ("abslink", base + "/dir"),
            ("rellink", "../\((base as NSString).lastPathComponent)/dir/sub"),
            ("chain", "linkdir"), ("dangling", "nowhere"), ("abschain", base + "/abslink"),
        ] {
            try FileManager.default.createSymbolicLink(atPath: base + "/" + link, withDestinationPath: destination)
        }
        var cases = Self.shapes
        for relative in [
            "linkdir", "linkdir/sub", "linkdir/sub/../f", "abslink/sub", "abslink/../dir", "rellink", "rellink/..",
            "chain/sub", "chain", "dangling", "dangling/x", "dir/f.csv", "dir/../dir/f.csv", "abschain/sub",
        ] {
            cases += [base + "/" + relative, base + "//" + relative + "/", "./" + relative]
        }
        // From two current directories: corelibs resolves a relative link's destination from it.
        let previous = FileManager.default.currentDirectoryPath
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        for current in [previous, base] {
            XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(current))
            for path in cases {
                let ns = path as NSString
                XCTAssertEqual(PathText.lastComponent(path), ns.lastPathComponent, "lastComponent of \(path)")
                XCTAssertEqual(
                    PathText.deletingExtension(path), ns.deletingPathExtension, "deletingExtension of \(path)")
                XCTAssertEqual(
                    PathText.standardized(path), ns.standardizingPath, "standardized of \(path) in \(current)")
                XCTAssertEqual(
                    PathText.resolvingSymlinks(path), ns.resolvingSymlinksInPath,
                    "resolvingSymlinks of \(path) in \(current)")
                XCTAssertEqual(
                    PathText.appending("q.txt", to: path), ns.appendingPathComponent("q.txt"), "appending to \(path)")
                XCTAssertEqual(
                    PathText.appending(path, to: "/base"), ("/base" as NSString).appendingPathComponent(path))
                XCTAssertEqual(PathText.appending(path, to: ""), ("" as NSString).appendingPathComponent(path))
                if !Self.trapsInCorelibs(path) {
                    XCTAssertEqual(
                        PathText.deletingLastComponent(path), ns.deletingLastPathComponent, "deletingLast of \(path)")
                }
            }
        }
    }

    /// Where corelibs traps, PathText answers as Apple's NSString does.
    func testOneCharacterPathsHaveNoParent() {
        for path in ["a", "a/", ".", "a//"] { XCTAssertEqual(PathText.deletingLastComponent(path), "", path) }
    }

    /// `~` is the home directory HOME names.
    func testTildeIsTheHomeDirectory() {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        guard !home.isEmpty else { return }
        XCTAssertEqual(PathText.standardized("~/x/../y"), ("~/x/../y" as NSString).standardizingPath)
        XCTAssertTrue(PathText.standardized("~/y").hasSuffix("/y"))
    }
}
