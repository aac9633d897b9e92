import Foundation
import ShipyardTestSupport
import XCTest

/// The release procedure's invariant (RELEASING.md): the tools' `--version`
/// (`ShipyardVersion.current`) is the newest `CHANGELOG.md` entry, so a tag made from the
/// constant always has its changelog entry.
final class ReleaseVersionTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The version of the first `## VERSION` heading of the changelog text.
    static func newestEntry(in changelog: String) -> String? {
        for line in changelog.split(separator: "\n") where line.hasPrefix("## ") {
            return line.dropFirst(3).split(separator: " ").first.map(String.init)
        }
        return nil
    }

    func testNewestChangelogEntryIsTheToolsVersion() throws {
        let changelog = try String(contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try XCTUnwrap(Self.newestEntry(in: changelog), "CHANGELOG.md has no '## VERSION' entry")
        for tool in ["dbgen", "versionstamp"] {
            let result = try BuiltProducts.run(tool, ["--version"], in: Self.repository)
            XCTAssertEqual(result.status, 0, result.stderrText)
            XCTAssertEqual(
                result.stdoutText.trimmingCharacters(in: .newlines), newest,
                "\(tool) --version (ShipyardVersion.current) must equal the newest CHANGELOG.md entry: bump both together"
            )
        }
    }

    func testTheEntryReaderTakesTheFirstVersionHeading() {
        XCTAssertEqual(Self.newestEntry(in: "# Changelog\n\ntext\n## 1.2.3 (2027-01-01)\n## 1.2.2\n"), "1.2.3")
        XCTAssertEqual(Self.newestEntry(in: "# Changelog\n### not an entry\n"), nil)
    }
}
