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
            Set(closure.sources).isSuperset(of: ["Sources/FeedClient", "Sources/TUF", "Sources/FileSystemKit"]),
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
        for (category, file) in used {
            XCTAssertFalse(
                declared[category]?.isEmpty ?? true,
                "\(file) uses \(category), which \(Self.manifest) does not declare with a reason")
        }
        for category in declared.keys {
            XCTAssertNotNil(used[category], "\(Self.manifest) declares \(category), which no linked source uses")
        }
        // C617.1: metadata of files inside the app's container, never shown to the user.
        XCTAssertEqual(declared["NSPrivacyAccessedAPICategoryFileTimestamp"], ["C617.1"])
    }

    /// The manifest is a resource of the target, so SwiftPM and Xcode put it in the bundle.
    func testTheManifestIsATargetResource() throws {
        let manifest = try SwiftSourceScanner.text("Package.swift")
        let start = try XCTUnwrap(
            manifest.range(of: #"\.target\(\s*name: "FeedClient""#, options: .regularExpression),
            "no FeedClient target in Package.swift")
        let rest = manifest[start.lowerBound...]
        let declaration = rest[..<(rest.range(of: "\n        .")?.lowerBound ?? rest.endIndex)]
        XCTAssertTrue(declaration.contains(#"resources: [.copy("PrivacyInfo.xcprivacy")]"#), String(declaration))
    }
}
