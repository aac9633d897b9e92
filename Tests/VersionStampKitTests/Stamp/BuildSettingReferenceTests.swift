import XCTest
@testable import VersionStampKit

/// Which plist values are wholly an Xcode build-setting reference.
final class BuildSettingReferenceTests: XCTestCase {
    func testWholeReferences() {
        XCTAssertEqual(BuildSettingReference.settingName(in: "$(CURRENT_PROJECT_VERSION)"), "CURRENT_PROJECT_VERSION")
        XCTAssertEqual(BuildSettingReference.settingName(in: "${MARKETING_VERSION}"), "MARKETING_VERSION")
        XCTAssertEqual(BuildSettingReference.settingName(in: "$(PRODUCT_NAME:rfc1034identifier)"), "PRODUCT_NAME")
        XCTAssertEqual(BuildSettingReference.settingName(in: "$(_X1)"), "_X1")
    }

    func testOtherValuesAreNotReferences() {
        for value in ["", "1", "$(", "$()", "$(1X)", "$(A", "$(A}", "${A)", "x$(A)", "$(A)x", "$(A)$(B)",
                      "$(A $(B))", "$A", "(A)", "$(A-B)", "$(A.B)"] {
            XCTAssertNil(BuildSettingReference.settingName(in: value), value)
        }
    }
}
