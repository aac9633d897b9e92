import Foundation
import ShipyardTestSupport
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
        let date = "20231114" // 1700000000 is 2023-11-14 22:13:20 UTC (date -u -d @1700000000)
        XCTAssertEqual(
            rendered, "42 \(revision.sha) abababa M v1-3-gabababa-dirty v1 3 feature/x \(date) 1700000000 1 ")
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

    func testReleaseTokens() throws {
        var tagged = revision
        tagged.tag = "v2.0.0-beta.1"
        XCTAssertEqual(try VersionFormat("{version}|{prerelease}").render(tagged), "2.0.0|beta.1")
        // The tag alone: no short id, no dirty check.
        XCTAssertEqual(try VersionFormat("{version}").requirements, .nearestTag)
        XCTAssertEqual(try VersionFormat("{prerelease}").requirements, .nearestTag)
    }

    /// Through a context, {version} without a tag (or with a tag holding no number) is an error.
    func testVersionWithoutTagIsAnError() throws {
        var untagged = revision
        untagged.tag = nil
        XCTAssertThrowsError(try VersionContext(revision: untagged, override: nil).render("{count}-{version}")) {
            error in
            XCTAssertEqual((error as? VersionStampError)?.code, .noMatchingTag)
        }
        untagged.tag = "latest"
        XCTAssertThrowsError(try VersionContext(revision: untagged, override: nil).render("{prerelease}")) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .noMatchingTag)
            XCTAssertTrue((error as? VersionStampError)?.message.contains("'latest'") ?? false, "\(error)")
        }
        XCTAssertEqual(
            try VersionContext(revision: untagged, override: nil).render("{count}"), "42", "only {version} needs a tag")
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

/// Tag → release version: the prefix dropped, one to three integers kept, the rest is the prerelease.
final class ReleaseVersionTests: XCTestCase {
    private func parsed(_ tag: String) -> String? {
        ReleaseVersion(tag: tag).map { "\($0.version)|\($0.prerelease)" }
    }

    func testTheContractsExamples() {
        XCTAssertEqual(parsed("v7.8.0"), "7.8.0|")
        XCTAssertEqual(parsed("release-2.1-rc1"), "2.1|rc1")
        XCTAssertEqual(parsed("v2.0.0-beta.1"), "2.0.0|beta.1")
    }

    func testPrefixes() {
        XCTAssertEqual(parsed("1.2.3"), "1.2.3|")
        XCTAssertEqual(parsed("V1.2"), "1.2|")
        XCTAssertEqual(parsed("ios/v3.4.5"), "3.4.5|")
        XCTAssertEqual(parsed("app-v10"), "10|")
        XCTAssertEqual(parsed("release/2024.11.3"), "2024.11.3|")
    }

    func testAtMostThreeComponents() {
        XCTAssertEqual(parsed("v1.2.3.4"), "1.2.3|4")
        XCTAssertEqual(parsed("v1.2.3.4-rc1"), "1.2.3|4-rc1")
    }

    func testTheCoreEndsWhereADotIsNotFollowedByADigit() {
        XCTAssertEqual(parsed("v1."), "1|")
        XCTAssertEqual(parsed("v1.x"), "1|x")
        XCTAssertEqual(parsed("v1..2"), "1|.2")
        XCTAssertEqual(parsed("v2.0.0.beta"), "2.0.0|beta")
        XCTAssertEqual(parsed("v2.0rc1"), "2.0|rc1")
    }

    func testOnlyOneLeadingSeparatorIsDropped() {
        XCTAssertEqual(parsed("v2.0.0--beta"), "2.0.0|-beta")
        XCTAssertEqual(parsed("v2.0.0-.1"), "2.0.0|.1")
        XCTAssertEqual(parsed("v2.0.0+build.5"), "2.0.0|+build.5")
        XCTAssertEqual(parsed("v2.0.0_hotfix"), "2.0.0|_hotfix")
    }

    func testDigitsAreKeptAsWritten() {
        XCTAssertEqual(parsed("v01.002.0003"), "01.002.0003|")
        XCTAssertEqual(parsed("v99999999999999999999"), "99999999999999999999|", "no overflow: the digits are text")
    }

    func testATagWithoutDigitsNamesNoVersion() {
        XCTAssertNil(parsed("latest"))
        XCTAssertNil(parsed(""))
        XCTAssertNil(parsed("v"))
        XCTAssertNil(parsed("v٣"), "only ASCII digits count")
    }

    func testNonASCIIAroundTheCore() {
        XCTAssertEqual(parsed("versión-1.2-ñ"), "1.2|ñ")
    }

    /// Randomized: for generated tags PREFIX + CORE + SEP + REST the parse gives CORE and REST back.
    func testGeneratedTagsRoundTrip() {
        var generator = SeededGenerator(seed: 2026)
        let prefixes = ["", "v", "V", "release-", "ios/v", "app_"]
        let separators = ["-", "."]
        let rests = ["", "beta.1", "rc2", "alpha", "pre-release.3"]
        for _ in 0..<500 {
            let count = Int.random(in: 1...3, using: &generator)
            let core = (0..<count).map { _ in String(Int.random(in: 0...99_999, using: &generator)) }.joined(
                separator: ".")
            let rest = rests.randomElement(using: &generator)!
            let separator = rest.isEmpty ? "" : separators.randomElement(using: &generator)!
            let tag = prefixes.randomElement(using: &generator)! + core + separator + rest
            XCTAssertEqual(parsed(tag), "\(core)|\(rest)", tag)
        }
    }
}

/// `{date}`: the calendar day in UTC, python3's datetime as the oracle (leap days, negative
/// times, far future).
final class UTCDateTests: XCTestCase {
    func testMatchesPython() throws {
        let times: [Int64] = [0, 1_700_000_000, 951_782_400, 4_107_542_399, -1, 1_234_567_890]
        let output = try PlistTestSupport.python(
            """
            import datetime, sys
            for t in sys.argv[1:]:
                print(datetime.datetime.fromtimestamp(int(t), datetime.timezone.utc).strftime('%Y%m%d'))
            """, times.map(String.init))
        XCTAssertEqual(times.map(UTCDate.day(of:)), output.split(separator: "\n").map(String.init))
    }
}
