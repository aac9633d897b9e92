import Foundation
import ShipyardTestSupport
import XCTest

/// The README stays an overview: at most 300 lines (reference material lives in the DocC
/// articles and docs/, which it links), and its first command installs only what the tools need.
final class ReadmeLengthTests: XCTestCase {
    static let readme = SwiftSnippetTests.repository.appendingPathComponent("README.md")

    func testTheReadmeIsAtMost300Lines() throws {
        let lines = try String(contentsOf: Self.readme, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(
            lines.count - 1, 300, "README.md has \(lines.count - 1) lines: move reference material to a DocC article")
    }

    /// The first command builds the tools after `setup.sh --tools`, which installs no test oracle;
    /// the second, the tests', after `setup.sh`, which installs them.
    func testTheFirstCommandInstallsOnlyWhatTheToolsNeed() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let commands = text.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n") ?? []
        XCTAssertTrue(
            commands.first?.hasPrefix("./scripts/setup.sh --tools && swift run dbgen") ?? false, "\(commands)")
        XCTAssertTrue(commands.dropFirst().first?.hasPrefix("./scripts/setup.sh && swift test") ?? false, "\(commands)")
        let setup = SwiftSnippetTests.repository.appendingPathComponent("scripts/setup.sh").path
        let tools = try ProcessRunner.run("/bin/bash", [setup, "--list", "--tools"]).stdoutText.split(separator: "\n")
        let all = try ProcessRunner.run("/bin/bash", [setup, "--list"]).stdoutText.split(separator: "\n")
        for oracle in ["sqlite3", "sqlite3-tools", "nginx", "faketime", "strace", "python3", "rsync"] {
            XCTAssertFalse(tools.contains(Substring(oracle)), "setup.sh --tools installs the test oracle \(oracle)")
            XCTAssertTrue(all.contains(Substring(oracle)), "setup.sh does not install the test oracle \(oracle)")
        }
        for library in [
            "libsqlite3-dev", "libgit2-dev", "libxml2-dev", "zlib1g-dev", "libbz2-dev", "libcurl4-openssl-dev",
        ] {
            XCTAssertTrue(tools.contains(Substring(library)), "setup.sh --tools does not install \(library)")
        }
    }
}
