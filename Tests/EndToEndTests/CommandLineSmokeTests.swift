import ShipyardTestSupport
import XCTest

/// Every command answers `--help` and `--version` (swift-argument-parser's contract).
final class CommandLineSmokeTests: XCTestCase {
    func testHelpAndVersion() throws {
        for tool in ["dbgen", "versionstamp"] {
            let help = try BuiltProducts.run(tool, ["--help"])
            XCTAssertEqual(help.status, 0, help.stderrText)
            XCTAssertTrue(help.stdoutText.contains("USAGE"), help.stdoutText)
            let version = try BuiltProducts.run(tool, ["--version"])
            XCTAssertEqual(version.status, 0, version.stderrText)
            XCTAssertFalse(version.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
    }
}
