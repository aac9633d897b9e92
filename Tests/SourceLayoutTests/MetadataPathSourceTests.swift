import Foundation
import ShipyardTestSupport
import XCTest

/// A string from signed metadata (a target path, a hash, a role name) names a file only
/// through FileSystemKit's checked names (`PathComponent`, `RelativePath`, `SHA256Digest`):
/// every place the libraries that read feeds join a name to a directory is read here, and its
/// name must be a literal, a checked name's `.name`, a checked `RelativePath`, or one of the
/// few names below, each made of something other than metadata (the reason given). A join
/// added later with any other name fails this test until it is routed through a checked name
/// or listed here with its reason.
final class MetadataPathSourceTests: XCTestCase {
    static let directories = ["Sources/TUF", "Sources/FeedClient", "Sources/FeedPublisher", "Sources/tuf-client"]

    /// The calls that join a name to a directory: `URL.appendingPathComponent`, and `FeedLayout.path`.
    static let joins = ["appendingPathComponent(", "layout.path(", "appending(path:"]

    /// `FILE: name` of the joins whose name is not from metadata, with why.
    static let allowed: [String: String] = [
        "Sources/FeedClient/Update/FeedDirectory.swift: name": "one of commitOrder's four constant names",
        "Sources/FeedPublisher/FeedState.swift: name": "a top-level document name built from an integer version",
        "Sources/FeedPublisher/FeedState.swift: snapshotName": "N.snapshot.json, N an integer",
        "Sources/FeedPublisher/FeedState.swift: targetsName": "N.targets.json, N an integer",
        "Sources/FeedPublisher/MetadataWriter.swift: name": "its callers' names: N.ROLE.json, N an integer",
        "Sources/FeedPublisher/Feed.swift: name": "a name read from FEED's own directory listing",
        "Sources/FeedPublisher/Rotate.swift: name": "N.root.json of the root before, N an integer",
        "Sources/FeedPublisher/FeedVerifier.swift: stored": "entry.stored.string, a checked RelativePath",
        "Sources/FeedPublisher/FeedVerifier.swift: UUID().uuidString": "a scratch directory named by a UUID",
        "Sources/FeedPublisher/Publish.swift: try FeedLayout.storedName(of: path, sha256: blob.sha256)":
            "storedName checks every name (RelativePath)",
    ]

    /// The text inside the parentheses that open at `start` (just past the `(`).
    private static func argument(_ code: [UInt8], from start: Int) -> String {
        var depth = 1, end = start
        while end < code.count {
            if code[end] == UInt8(ascii: "(") { depth += 1 }
            if code[end] == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { break }
            }
            end += 1
        }
        return String(decoding: code[start..<end], as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether a name is checked by its form: a literal (blanked to nothing), a checked name's
    /// `.name`, or a checked `RelativePath` (`.stored`).
    private static func isChecked(_ name: String) -> Bool {
        name.isEmpty || name.hasSuffix(".name") || name.hasSuffix(".stored")
    }

    func testEveryNameJoinedToADirectoryIsChecked() throws {
        var problems: [String] = []
        var seen = 0
        for directory in Self.directories {
            for file in try SwiftSourceScanner.files(under: directory) {
                let text = String(decoding: file.code, as: UTF8.self)
                for join in Self.joins {
                    var search = text.startIndex
                    while let found = text.range(of: join, range: search..<text.endIndex) {
                        search = found.upperBound
                        seen += 1
                        let offset = text.utf8.distance(from: text.startIndex, to: found.upperBound)
                        let name = Self.argument(file.code, from: offset)
                        if Self.isChecked(name) || Self.allowed["\(file.path): \(name)"] != nil { continue }
                        problems.append(
                            "\(file.location(offset)): \(join)\(name)) joins a name that is not checked: make it a "
                                + "PathComponent, RelativePath or SHA256Digest (FileSystemKit's CheckedName.swift), "
                                + "or list it in MetadataPathSourceTests.allowed with why it cannot come from metadata")
                    }
                }
            }
        }
        XCTAssertGreaterThan(seen, 20, "the joins were found")
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testEveryAllowedNameIsStillThere() throws {
        var found: Set<String> = []
        for directory in Self.directories {
            for file in try SwiftSourceScanner.files(under: directory) {
                let text = String(decoding: file.code, as: UTF8.self)
                for join in Self.joins {
                    var search = text.startIndex
                    while let range = text.range(of: join, range: search..<text.endIndex) {
                        search = range.upperBound
                        let offset = text.utf8.distance(from: text.startIndex, to: range.upperBound)
                        found.insert("\(file.path): \(Self.argument(file.code, from: offset))")
                    }
                }
            }
        }
        XCTAssertEqual(Set(Self.allowed.keys).subtracting(found), [], "listed joins that no longer exist")
    }
}
