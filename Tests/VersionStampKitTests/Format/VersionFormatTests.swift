import Foundation
@testable import VersionStampKit
import XCTest

/// Parsing and rendering of version formats.
final class VersionFormatTests: XCTestCase {
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
        let date = "20231114"  // 1700000000 is 2023-11-14 22:13:20 UTC (date -u -d @1700000000)
        XCTAssertEqual(rendered, "42 \(revision.sha) abababa M v1-3-gabababa-dirty v1 3 feature/x \(date) 1700000000 1 ")
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
        XCTAssertTrue(try VersionFormat("{tag}").requirements.contains(.describe))
        XCTAssertEqual(try VersionFormat("plain").requirements, [])
    }

    func testHelpListsEveryToken() {
        for token in VersionToken.allCases {
            XCTAssertTrue(VersionToken.helpText.contains("{\(token.rawValue)}"))
        }
    }

    func testReleaseTokens() throws {
        var tagged = revision
        tagged.tag = "v2.0.0-beta.1"
        XCTAssertEqual(try VersionFormat("{version}|{prerelease}").render(tagged), "2.0.0|beta.1")
        XCTAssertEqual(try VersionFormat("{version}").requirements, .describe)
        XCTAssertEqual(try VersionFormat("{prerelease}").requirements, .describe)
    }

    /// Through a context, {version} without a tag (or with a tag holding no number) is an error.
    func testVersionWithoutTagIsAnError() throws {
        var untagged = revision
        untagged.tag = nil
        XCTAssertThrowsError(try VersionContext(revision: untagged, override: nil).render("{count}-{version}")) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .noMatchingTag)
        }
        untagged.tag = "latest"
        XCTAssertThrowsError(try VersionContext(revision: untagged, override: nil).render("{prerelease}")) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .noMatchingTag)
            XCTAssertTrue((error as? VersionStampError)?.message.contains("'latest'") ?? false, "\(error)")
        }
        XCTAssertEqual(try VersionContext(revision: untagged, override: nil).render("{count}"), "42", "only {version} needs a tag")
    }

    func testOffsetAppliesToCountOnly() throws {
        let context = VersionContext(revision: revision, override: nil, buildNumber: BuildNumber(offset: 1000))
        XCTAssertEqual(try context.render("{count}.{distance}"), "1042.3")
        let below = VersionContext(revision: revision, override: nil, buildNumber: BuildNumber(offset: -43))
        XCTAssertThrowsError(try below.render("{count}")) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .invalidBuildNumber)
        }
        XCTAssertEqual(try below.render("{short}"), "abababa", "the offset is not applied where {count} is not used")
    }

    func testRenderWithFixedRevision() throws {
        let context = VersionContext(revision: revision, override: nil)
        XCTAssertEqual(try context.render("{branch}@{short}"), "feature/x@abababa")
        XCTAssertThrowsError(try context.render("{nope}"))
    }
}
