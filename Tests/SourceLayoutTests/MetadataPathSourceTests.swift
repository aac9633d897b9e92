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

    /// The calls that join a name to a directory: `URL.appendingPathComponent`, and `FeedLayout.path`
    /// (and, read apart, ``concatenation``).
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
        "Sources/FeedPublisher/FeedVerifier.swift: UUID().uuidString": "a scratch directory named by a UUID",
        "Sources/FeedPublisher/Publish.swift: try FeedLayout.storedName(of: path, sha256: blob.sha256)":
            "storedName checks every name (RelativePath)",
        "Sources/FeedPublisher/FeedLayout.swift: name": "FeedLayout.path itself: its callers are read as layout.path(",
        "Sources/FeedPublisher/FeedPull.swift: name": "root.json, timestamp.json or N.ROLE.json, N an integer",
        "Sources/FeedPublisher/HostedFeed.swift: document": "N.root.json, N an integer",
        "Sources/FeedPublisher/HostedFeedCheck.swift: UUID().uuidString": "a scratch directory named by a UUID",
        "Sources/FeedPublisher/HostedFeedCheck.swift: name": "root.json, timestamp.json or N.ROLE.json, N an integer",
        "Sources/FeedPublisher/PatchMaker.swift: PathText.lastComponent(basePath)":
            "the publisher's own scratch file (WORK/patch-N/base.sqlite)",
    ]

    /// A name joined to a directory's path as text: `DIRECTORY + "/" + NAME` (found in the
    /// source as written, since the scanner blanks the literal).
    static let concatenation = #"+ "/" + "#

    /// The first argument inside the parentheses that open at `start` (just past the `(`): up to
    /// the `)` that closes them or a `,` outside any nested parentheses (`isDirectory: true`
    /// after it is not a name).
    private static func argument(_ code: [UInt8], from start: Int) -> String {
        var depth = 1, end = start
        while end < code.count {
            if code[end] == UInt8(ascii: "(") { depth += 1 }
            if code[end] == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { break }
            }
            if code[end] == UInt8(ascii: ","), depth == 1 { break }
            end += 1
        }
        return String(decoding: code[start..<end], as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The operand that follows a `+` at `start`: up to the end of the line, or a `,`, `)` or
    /// `+`, `}` or `]` outside any parentheses it opens.
    private static func operand(_ code: [UInt8], from start: Int) -> String {
        var depth = 0, end = start
        while end < code.count, code[end] != 10 {
            if code[end] == UInt8(ascii: "(") { depth += 1 }
            if code[end] == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0, [",", "+", "}", "]"].contains(where: { code[end] == UInt8(ascii: $0) }) { break }
            end += 1
        }
        return String(decoding: code[start..<end], as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every join in the libraries: `(FILE:LINE, JOIN, NAME)`.
    private static func joinsInSources() throws -> [(location: String, path: String, join: String, name: String)] {
        var found: [(String, String, String, String)] = []
        for directory in directories {
            for file in try SwiftSourceScanner.files(under: directory) {
                let text = String(decoding: file.code, as: UTF8.self)
                for join in joins {
                    var search = text.startIndex
                    while let range = text.range(of: join, range: search..<text.endIndex) {
                        search = range.upperBound
                        let offset = text.utf8.distance(from: text.startIndex, to: range.upperBound)
                        found.append((file.location(offset), file.path, join, argument(file.code, from: offset)))
                    }
                }
                // The literal is blanked in the code, not in the source; offsets are the same.
                let source = try SwiftSourceScanner.text(file.path)
                var search = source.startIndex
                while let range = source.range(of: concatenation, range: search..<source.endIndex) {
                    search = range.upperBound
                    let offset = source.utf8.distance(from: source.startIndex, to: range.upperBound)
                    let blanked = file.code[offset - concatenation.utf8.count..<offset]
                    guard blanked.first == UInt8(ascii: "+") else { continue } // inside a comment or a string
                    found.append((file.location(offset), file.path, concatenation, operand(file.code, from: offset)))
                }
            }
        }
        return found
    }

    /// Whether a name is checked by its form: a literal (blanked to nothing), a checked name's
    /// `.name`, or a checked `RelativePath` (`.stored`).
    private static func isChecked(_ name: String) -> Bool {
        name.isEmpty || name.hasSuffix(".name") || name.hasSuffix(".stored")
    }

    func testEveryNameJoinedToADirectoryIsChecked() throws {
        var problems: [String] = []
        let joins = try Self.joinsInSources()
        for (location, path, join, name) in joins {
            if Self.isChecked(name) || Self.allowed["\(path): \(name)"] != nil { continue }
            problems.append(
                "\(location): \(join)\(name) joins a name that is not checked: make it a "
                    + "PathComponent, RelativePath or SHA256Digest (FileSystemKit's checked names), "
                    + "or list it in MetadataPathSourceTests.allowed with why it cannot come from metadata")
        }
        XCTAssertGreaterThan(joins.count, 20, "the joins were found")
        XCTAssertTrue(joins.contains { $0.join == Self.concatenation }, "the concatenations were found")
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testEveryAllowedNameIsStillThere() throws {
        let found = Set(try Self.joinsInSources().map { "\($0.path): \($0.name)" })
        XCTAssertEqual(Set(Self.allowed.keys).subtracting(found), [], "listed joins that no longer exist")
    }
}
