import Foundation
import ShipyardTestSupport
import XCTest

/// `Sources/FeedClient/PrivacyInfo.xcprivacy` declares every category of Apple's required-reason
/// APIs that FeedClient and the targets it links call, each with a reason: Xcode refuses an app
/// (ITMS-91053) whose code calls one undeclared. Every Swift file under those targets is read,
/// whatever folder it is in, so a new file is checked as soon as it exists.
final class PrivacyManifestTests: XCTestCase {
    static let manifest = "Sources/FeedClient/PrivacyInfo.xcprivacy"

    /// What an app that links FeedClient compiles of this package, read from Package.swift.
    static func linked() throws -> [String] {
        try RequiredReasonAPIs.closure(of: "FeedClient").sources
    }

    func testTheScanCoversFeedClientAndWhatItLinks() throws {
        let closure = try RequiredReasonAPIs.closure(of: "FeedClient")
        XCTAssertTrue(
            Set(closure.sources).isSuperset(of: [
                "Sources/FeedClient", "Sources/HTTPTransport", "Sources/TUF", "Sources/FileSystemKit",
            ]),
            "\(closure.sources)")
        // swift-crypto's Crypto is CryptoKit on Apple platforms (Apple's framework, under Apple's
        // own manifest; swift-crypto's Swift wrappers call no required-reason API). Another
        // package here would need its manifest checked too.
        XCTAssertEqual(closure.otherPackages, ["Crypto"], "a new package dependency: check its privacy manifest")
        let files = try closure.sources.flatMap { try SwiftSourceScanner.files(under: $0) }.map(\.path)
        XCTAssertTrue(files.contains("Sources/FeedClient/Transport/StagingArea.swift"), "the scan walks subfolders")
    }

    func testEveryCategoryTheLinkedSourcesUseIsDeclaredWithAReason() throws {
        let used = try RequiredReasonAPIs.usedCategories(in: Self.linked())
        let (tracking, declared) = try RequiredReasonAPIs.declared(inManifest: Self.manifest)
        XCTAssertEqual(tracking, false)
        XCTAssertNotNil(
            try RequiredReasonAPIs.usedCategories(in: ["Sources/FeedClient"])[
                "NSPrivacyAccessedAPICategoryFileTimestamp"],
            "stat() of a staged download: the scan must see it")
        let problems = RequiredReasonAPIs.mismatches(used: used, declared: declared, manifest: Self.manifest)
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
        // C617.1: metadata of files inside the app's container, never shown to the user.
        XCTAssertEqual(declared["NSPrivacyAccessedAPICategoryFileTimestamp"], ["C617.1"])
    }

    /// A category used without a reason, and one declared but unused, are each reported; the
    /// scan sees a disk-space call in code and not in a comment.
    func testTheComparisonReportsBothWays() throws {
        let timestamp = "NSPrivacyAccessedAPICategoryFileTimestamp", disk = "NSPrivacyAccessedAPICategoryDiskSpace"
        XCTAssertEqual(
            RequiredReasonAPIs.mismatches(used: [disk: "A.swift"], declared: [timestamp: ["C617.1"]], manifest: "M"),
            [
                "A.swift uses \(disk), which M does not declare with a reason",
                "M declares \(timestamp), which no source it covers uses",
            ])
        let pattern = try XCTUnwrap(RequiredReasonAPIs.categories.first { $0.category == disk }?.pattern)
        let code = SwiftSourceScanner.codeOnly(Array("// statfs(path)\nlet free = statvfs(path, &info)\n".utf8))
        XCTAssertNotNil(String(decoding: code, as: UTF8.self).range(of: pattern, options: .regularExpression))
        let commentOnly = SwiftSourceScanner.codeOnly(Array("// statfs(path)\n".utf8))
        XCTAssertNil(String(decoding: commentOnly, as: UTF8.self).range(of: pattern, options: .regularExpression))
    }

    /// The manifest is a resource of the target on Apple platforms, so SwiftPM and Xcode put it in
    /// the bundle (a Linux host leaves it out: Package.swift says why).
    func testTheManifestIsATargetResource() throws {
        let problems = try RequiredReasonAPIs.manifestResourceProblems(target: "FeedClient")
        XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"))
    }
}
