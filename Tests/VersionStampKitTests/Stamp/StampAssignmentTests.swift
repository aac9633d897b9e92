import Foundation
import ShipyardTestSupport
import XCTest
@testable import VersionStampKit

/// `--set KEYPATH=FORMAT` (each key its own format, the App Store rule on each) and build-setting
/// references (kept unless `--force`).
final class StampAssignmentTests: XCTestCase {
    private var directory: URL!
    private let revision = RevisionInfo(count: 321, sha: String(repeating: "c", count: 40), short: "ccccccc", isDirty: false,
                                        describe: "v2.1.0-rc1-4-gccccccc", tag: "v2.1.0-rc1", distance: 4,
                                        branch: "main", commitTime: 1_700_000_000)

    override func setUpWithError() throws {
        directory = try PlistTestSupport.temporaryDirectory(self)
    }

    private func infoPlist(short: String, version: String) throws -> URL {
        try InfoPlistFixture.write(in: directory, short: short, version: version)
    }

    private func plan(_ plist: URL, _ mode: StampMode, offset: Int = 0, force: Bool = false) -> StampPlan {
        StampPlan(options: StampOptions(plists: [plist.path], mode: mode, force: force),
                  context: VersionContext(revision: revision, override: nil, buildNumber: BuildNumber(offset: offset)))
    }

    func testBothVersionsInOneRun() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let mode = try StampOptions.mode(keys: [], assignments: ["CFBundleShortVersionString={version}", "CFBundleVersion={count}"],
                                         placeholder: nil)
        let stamped = plan(plist, mode, offset: 1000)
        XCTAssertEqual(stamped.errors, [])
        XCTAssertEqual(stamped.reportLines(written: true), [
            "\(plist.path):5: CFBundleShortVersionString: \"1.0\" → \"2.1.0\"",
            "\(plist.path):7: CFBundleVersion: \"1\" → \"1321\"",
        ])
    }

    func testTheAppStoreRuleIsCheckedOnEachKey() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let mode = StampMode.assignments([KeyAssignment(PlistKeyPath(components: ["CFBundleShortVersionString"]), format: "{version}-{prerelease}"),
                                          KeyAssignment(.bundleVersion, format: "{count}")])
        let stamped = plan(plist, mode)
        XCTAssertEqual(stamped.errors.map(\.code), [.appStoreRule])
        XCTAssertEqual(stamped.errors.first?.line, 5)
        XCTAssertTrue(stamped.errors.first?.message.contains("\"2.1.0-rc1\"") ?? false, "\(stamped.errors)")
    }

    func testAKeyWithoutItsOwnFormatUsesTheStampsFormat() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let options = StampOptions(plists: [plist.path], format: "{distance}",
                                   mode: .assignments([KeyAssignment(.bundleVersion), KeyAssignment(PlistKeyPath(components: ["CFBundleShortVersionString"]), format: "{version}")]))
        let stamped = StampPlan(options: options, context: VersionContext(revision: revision, override: nil))
        XCTAssertEqual(stamped.updates.first?.changes.map(\.newValue), ["4", "2.1.0"])
    }

    func testAnUnknownTokenIsReportedOnceAndNothingIsPlanned() throws {
        let plist = try infoPlist(short: "1.0", version: "1")
        let options = StampOptions(plists: [plist.path, plist.path], mode: .assignments([KeyAssignment(.bundleVersion, format: "{build}")]))
        let stamped = StampPlan(options: options, context: VersionContext(revision: revision, override: nil))
        XCTAssertEqual(stamped.errors.map(\.code), [.invalidFormat])
        XCTAssertEqual(stamped.updates.count, 0)
    }

    func testABuildSettingReferenceIsKeptUnlessForced() throws {
        let plist = try infoPlist(short: "$(MARKETING_VERSION)", version: "$(CURRENT_PROJECT_VERSION)")
        let refused = plan(plist, .keys([.bundleVersion]))
        XCTAssertEqual(refused.errors.map(\.code), [.buildSettingReference])
        let error = refused.errors.first
        XCTAssertEqual(error?.line, 7)
        XCTAssertTrue(error?.message.contains("CURRENT_PROJECT_VERSION") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("--xcconfig") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("--force") ?? false, "\(String(describing: error))")
        XCTAssertEqual(refused.updates.count, 0)

        // Automatic mode lands on CFBundleVersion too; ${NAME} is a reference as well.
        let braces = try infoPlist(short: "1.0", version: "${CURRENT_PROJECT_VERSION}")
        XCTAssertEqual(plan(braces, .automatic(placeholder: StampMode.defaultPlaceholder)).errors.map(\.code), [.buildSettingReference])

        let forced = plan(plist, .keys([.bundleVersion]), force: true)
        XCTAssertEqual(forced.errors, [])
        XCTAssertEqual(forced.updates.first?.changes.map(\.newValue), ["321"])
    }

    func testTextAroundAReferenceIsAValueOfItsOwn() throws {
        let plist = try infoPlist(short: "1.0", version: "1$(SUFFIX)")
        XCTAssertEqual(plan(plist, .keys([.bundleVersion])).errors, [])
    }
}
