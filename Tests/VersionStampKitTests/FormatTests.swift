import Foundation
import VersionStampKit
import XCTest

/// Parsing and rendering of version formats.
final class FormatTests: XCTestCase {
    private let revision = RevisionInfo(
        count: 42, sha: String(repeating: "ab", count: 20), short: "abababa", isDirty: true,
        describe: "v1-3-gabababa-dirty", tag: "v1", distance: 3, branch: "feature/x", commitTime: 1_700_000_000)

    func testTokensAndLiterals() throws {
        let format = try VersionFormat("r{count}{dirty}")
        XCTAssertEqual(format.segments, [.literal("r"), .token(.count), .token(.dirty)])
        XCTAssertEqual(format.render(revision), "r42M")
        XCTAssertEqual(format.render(revision, dirtyMarker: "+"), "r42+")
        var clean = revision
        clean.isDirty = false
        XCTAssertEqual(format.render(clean), "r42")
    }

    func testEveryTokenRenders() throws {
        let all = VersionToken.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
        let rendered = try VersionFormat(all).render(revision)
        let date = try runDate(1_700_000_000)
        XCTAssertEqual(rendered, "42 \(revision.sha) abababa M v1-3-gabababa-dirty v1 3 feature/x \(date) 1700000000")
    }

    func testNoTagRendersEmpty() throws {
        var untagged = revision
        untagged.tag = nil
        XCTAssertEqual(try VersionFormat("[{tag}]").render(untagged), "[]")
    }

    func testDoubledBracesAreLiteral() throws {
        let format = try VersionFormat("{{count}} = {count}, }}{{")
        XCTAssertEqual(format.render(revision), "{count} = 42, }{")
        XCTAssertEqual(format.tokens, [.count])
    }

    func testUnknownTokenIsNamedWithTheValidOnes() {
        XCTAssertThrowsError(try VersionFormat("r{revision}")) { error in
            let message = (error as? VersionStampError)?.message ?? ""
            XCTAssertTrue(message.contains("'{revision}'"), message)
            for token in VersionToken.allCases {
                XCTAssertTrue(message.contains("{\(token.rawValue)}"), message)
            }
        }
    }

    func testUnbalancedBracesAreErrors() {
        XCTAssertThrowsError(try VersionFormat("r{count"))
        XCTAssertThrowsError(try VersionFormat("r}"))
        XCTAssertThrowsError(try VersionFormat("{}"))
    }

    func testRequirementsComputeOnlyWhatIsUsed() throws {
        XCTAssertEqual(try VersionFormat("{count}").requirements, .count)
        XCTAssertEqual(try VersionFormat("r{count}{dirty}").requirements, [.count, .dirty])
        XCTAssertFalse(try VersionFormat("{count}{sha}{branch}").requirements.contains(.describe))
        XCTAssertFalse(try VersionFormat("{count}").requirements.contains(.short))
        // {tag} needs the nearest tag, not the short id and dirty check of the {describe} string.
        XCTAssertEqual(try VersionFormat("{tag}").requirements, .nearestTag)
        XCTAssertEqual(try VersionFormat("plain").requirements, [])
    }

    func testHelpListsEveryToken() {
        for token in VersionToken.allCases {
            XCTAssertTrue(VersionToken.helpText.contains("{\(token.rawValue)}"))
        }
    }

    func testRenderWithFixedRevision() throws {
        let context = VersionContext(revision: revision, override: nil)
        XCTAssertEqual(try context.render("{branch}@{short}"), "feature/x@abababa")
        XCTAssertThrowsError(try context.render("{nope}"))
    }

    /// UTC YYYYMMDD from the date(1) oracle.
    private func runDate(_ seconds: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["date", "-u", "-d", "@\(seconds)", "+%Y%m%d"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
