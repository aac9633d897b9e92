import Foundation
import ShipyardTestSupport
import XCTest

/// `Sources/SyncClient/PrivacyInfo.xcprivacy` declares every category of Apple's required-reason
/// APIs that SyncClient and the targets it links call, each with a reason (Xcode refuses an app,
/// ITMS-91053, whose code calls one undeclared). Every Swift file under those targets is read.
final class PrivacyManifestTests: XCTestCase {
    static let manifest = "Sources/SyncClient/PrivacyInfo.xcprivacy"

    func testTheScanCoversSyncClientAndWhatItLinks() throws {
        let closure = try RequiredReasonAPIs.closure(of: "SyncClient")
        XCTAssertEqual(
            closure.sources,
            [
                "Sources/CCurl", "Sources/EssentialsSupport", "Sources/FileSystemKit", "Sources/HTTPTransport",
                "Sources/LayeredDatabase", "Sources/SQLiteCore", "Sources/ShipyardVersion", "Sources/SyncClient",
                "Sources/SyncProtocol",
            ])
        XCTAssertEqual(closure.otherPackages, [], "SyncClient links no other package")
    }

    func testEveryCategoryTheLinkedSourcesUseIsDeclaredWithAReason() throws {
        let sources = try RequiredReasonAPIs.closure(of: "SyncClient").sources
        let used = try RequiredReasonAPIs.usedCategories(in: sources)
        let (tracking, declared) = try RequiredReasonAPIs.declared(inManifest: Self.manifest)
        XCTAssertEqual(tracking, false)
        let problems = RequiredReasonAPIs.mismatches(used: used, declared: declared, manifest: Self.manifest)
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
        XCTAssertEqual(declared["NSPrivacyAccessedAPICategoryFileTimestamp"], ["C617.1"])
    }

    /// The manifest is a resource of the target on Apple platforms, so SwiftPM and Xcode put it in
    /// the bundle (a Linux host leaves it out: Package.swift says why).
    func testTheManifestIsATargetResource() throws {
        let problems = try RequiredReasonAPIs.manifestResourceProblems(target: "SyncClient")
        XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"))
    }
}
