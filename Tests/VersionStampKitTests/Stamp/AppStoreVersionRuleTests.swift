import XCTest
@testable import VersionStampKit

final class AppStoreVersionRuleTests: XCTestCase {
    func testValidVersions() {
        for value in ["0", "42", "1.2", "1.2.3", "2024.11.30", "123456789012345678"] {
            XCTAssertTrue(AppStoreVersionRule.isValid(value), value)
        }
    }

    func testInvalidVersions() {
        for value in ["", "r42", "42M", "1.2.3.4", "1..2", ".1", "1.", "-1", "1.2b", "1234567890123456789", " 1", "١٢"] {
            XCTAssertFalse(AppStoreVersionRule.isValid(value), value)
        }
    }

    func testViolationQuotesTheRuleOnlyForBundleVersionKeys() {
        XCTAssertNil(AppStoreVersionRule.violation(key: "BuildLabel", value: "r42M"))
        let message = AppStoreVersionRule.violation(key: "CFBundleShortVersionString", value: "1.2.3.4")
        XCTAssertEqual(message, "CFBundleShortVersionString \"1.2.3.4\" does not follow the App Store rule: one to three period-separated non-negative integers (such as 42, 1.2 or 1.2.3), at most 18 characters")
    }

    func testStampRefusesAViolationInEitherModeAndWritesNothing() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let plist = directory.appendingPathComponent("Info.plist")
        let original = Data("""
        <plist version="1.0">
        <dict>
        <key>CFBundleVersion</key>
        <string>r0000</string>
        <key>CFBundleShortVersionString</key>
        <string>1.0</string>
        </dict>
        </plist>
        """.utf8)
        try original.write(to: plist)
        // Placeholder mode (automatic): r0000 becomes r12M in CFBundleVersion.
        var plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("r12M"))
        XCTAssertEqual(plan.errors.map(\.description), [
            "\(plist.path):4: error: CFBundleVersion \"r12M\" does not follow the App Store rule: \(AppStoreVersionRule.description)",
        ])
        // Key mode.
        plan = StampPlan(options: StampOptions(plists: [plist.path], mode: .keys([PlistKeyPath(components: ["CFBundleShortVersionString"])])),
                         context: PlistTestSupport.context("1.2.3.4"))
        XCTAssertEqual(plan.errors.count, 1)
        XCTAssertEqual(plan.errors.first?.line, 6)
        XCTAssertTrue(plan.errors.first?.message.contains("App Store rule") ?? false)
        XCTAssertEqual(plan.errors.first?.code, .appStoreRule)
        XCTAssertEqual(try Data(contentsOf: plist), original)
    }
}
