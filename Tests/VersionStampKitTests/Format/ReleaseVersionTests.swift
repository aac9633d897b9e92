import ShipyardTestSupport
import XCTest
@testable import VersionStampKit

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
            let core = (0..<count).map { _ in String(Int.random(in: 0...99_999, using: &generator)) }.joined(separator: ".")
            let rest = rests.randomElement(using: &generator)!
            let separator = rest.isEmpty ? "" : separators.randomElement(using: &generator)!
            let tag = prefixes.randomElement(using: &generator)! + core + separator + rest
            XCTAssertEqual(parsed(tag), "\(core)|\(rest)", tag)
        }
    }
}
