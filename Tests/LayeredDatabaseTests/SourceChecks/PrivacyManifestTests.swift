import Foundation
import ShipyardTestSupport
import XCTest

/// `Sources/LayeredDatabase/PrivacyInfo.xcprivacy` declares every category of Apple's
/// required-reason APIs that the targets an app links (LayeredDatabase, SQLiteCore,
/// FileSystemKit, SyncProtocol) call, each with a reason: Xcode refuses an app (ITMS-91053) whose code calls
/// one undeclared. The categories and the scan are ShipyardTestSupport's ``RequiredReasonAPIs``.
final class PrivacyManifestTests: LayeredDatabaseTestCase {
    /// The targets whose code is in an app that links LayeredDatabase (as AppleAvailabilityTests).
    static let appLinked = [
        "Sources/LayeredDatabase", "Sources/SQLiteCore", "Sources/FileSystemKit", "Sources/SyncProtocol",
        "Sources/EssentialsSupport",
    ]
    static let manifest = "Sources/LayeredDatabase/PrivacyInfo.xcprivacy"

    /// The list above is what Package.swift links.
    func testTheScannedTargetsAreWhatLayeredDatabaseLinks() throws {
        let closure = try RequiredReasonAPIs.closure(of: "LayeredDatabase")
        XCTAssertEqual(closure.sources, Self.appLinked.sorted())
        XCTAssertEqual(closure.otherPackages, [], "LayeredDatabase links no other package")
    }

    func testEveryCategoryTheAppLinkedSourcesUseIsDeclaredWithAReason() throws {
        let used = try RequiredReasonAPIs.usedCategories(in: Self.appLinked)
        let (tracking, declared) = try RequiredReasonAPIs.declared(inManifest: Self.manifest)
        XCTAssertEqual(tracking, false)
        XCTAssertNotNil(
            used["NSPrivacyAccessedAPICategoryFileTimestamp"],
            "stat() of the bundled file and of downloads: the scan must see it")
        let problems = RequiredReasonAPIs.mismatches(used: used, declared: declared, manifest: Self.manifest)
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
        // C617.1: metadata of files inside the app's container, never shown to the user.
        XCTAssertEqual(declared["NSPrivacyAccessedAPICategoryFileTimestamp"], ["C617.1"])
    }

    /// The manifest is a resource of the target on Apple platforms, so SwiftPM and Xcode put it in
    /// the bundle (a Linux host leaves it out: Package.swift says why).
    func testTheManifestIsATargetResource() throws {
        let problems = try RequiredReasonAPIs.manifestResourceProblems(target: "LayeredDatabase")
        XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"))
    }
}
