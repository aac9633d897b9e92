import Foundation
import ShipyardTestSupport
import XCTest

/// swift-format's `NeverForceUnwrap` and `NeverUseForceTry` are on (as swift-argument-parser
/// keeps them), so `scripts/format.sh --lint` refuses a new force unwrap that does not say why
/// (`// swift-format-ignore: NeverForceUnwrap` after the comment that does); and no Swift
/// file of the project uses `try!`, tests included (the rule passes over files that import
/// XCTest).
final class ForceUnwrapRulesTests: XCTestCase {
    func testTheRulesAreOn() throws {
        let data = try Data(contentsOf: SwiftSourceScanner.packageRoot.appendingPathComponent(".swift-format"))
        let configuration = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rules = try XCTUnwrap(configuration["rules"] as? [String: Bool])
        XCTAssertEqual(rules["NeverForceUnwrap"], true)
        XCTAssertEqual(rules["NeverUseForceTry"], true)
    }

    func testNoSwiftFileUsesForceTry() throws {
        var found: [String] = []
        for directory in ["Sources", "Tests", "Plugins", "Examples", "Fuzz", "scripts"] {
            for file in try SwiftSourceScanner.files(under: directory) {
                for match in SwiftSourceScanner.matches(of: #"\b(try)!"#, in: file) {
                    found.append(file.location(match.offset))
                }
            }
        }
        XCTAssertEqual(found, [], "try! (use try, or say why a failure cannot happen)")
    }
}
