import XCTest

/// Every command answers `--help` and `--version` (swift-argument-parser's contract).
final class CommandLineSmokeTests: XCTestCase {
    func testHelpAndVersion() throws {
        for tool in ["dbgen", "versionstamp"] {
            let help = try CommandRunner.runProduct(tool, ["--help"])
            XCTAssertEqual(help.status, 0, help.stderr)
            XCTAssertTrue(help.stdout.contains("USAGE"), help.stdout)
            let version = try CommandRunner.runProduct(tool, ["--version"])
            XCTAssertEqual(version.status, 0, version.stderr)
            XCTAssertFalse(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
    }
}
