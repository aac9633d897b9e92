import ShipyardTestSupport
import XCTest

/// `dbgen-plugin-tool`, what the plugins run when Shipyard is built from source, is `dbgen`
/// without the over-the-air commands: for every subcommand it offers it reads, and answers, as
/// `dbgen` does (the plugins' users see `dbgen`). scripts/check-app-links.sh checks what it links.
final class DBGenPluginToolTests: XCTestCase {
    /// The names under SUBCOMMANDS in a root `--help` (a name starts a line indented by two;
    /// a wrapped abstract is indented further).
    static func subcommands(inHelp help: String) -> [String] {
        var names: [String] = []
        var inSection = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("SUBCOMMANDS:") {
                inSection = true
            } else if inSection, line.hasPrefix("  "), !line.hasPrefix("   "),
                let name = line.split(separator: " ").first
            {
                names.append(String(name))
            } else if inSection, line.isEmpty || !line.hasPrefix(" ") {
                break
            }
        }
        return names
    }

    func testItOffersDBGensCommandsThatNeedNoNetwork() throws {
        let lean = try BuiltProducts.run("dbgen-plugin-tool", ["--help"])
        let full = try BuiltProducts.run("dbgen", ["--help"])
        XCTAssertEqual(lean.status, 0, lean.stderrText)
        let leanCommands = Self.subcommands(inHelp: lean.stdoutText)
        XCTAssertEqual(leanCommands, ["build", "check", "attach", "diff", "update"], lean.stdoutText)
        XCTAssertEqual(
            Set(leanCommands).subtracting(Self.subcommands(inHelp: full.stdoutText)), [],
            "every command of dbgen-plugin-tool is a dbgen command:\n\(full.stdoutText)")
        for overTheAir in ["keys", "feed", "publish", "fetch"] {
            XCTAssertFalse(leanCommands.contains(overTheAir), overTheAir)
        }
        XCTAssertTrue(lean.stdoutText.contains("USAGE: dbgen "), lean.stdoutText)
    }

    func testEachSharedCommandPrintsTheSameHelpAsDBGen() throws {
        let shared = Self.subcommands(inHelp: try BuiltProducts.run("dbgen-plugin-tool", ["--help"]).stdoutText)
        XCTAssertFalse(shared.isEmpty)
        for command in shared {
            let full = try BuiltProducts.run("dbgen", [command, "--help"])
            let lean = try BuiltProducts.run("dbgen-plugin-tool", [command, "--help"])
            XCTAssertEqual(full.status, 0, "\(command): \(full.stderrText)")
            XCTAssertEqual(lean.status, full.status, command)
            XCTAssertEqual(lean.stdoutText, full.stdoutText, "dbgen \(command) --help")
        }
        XCTAssertEqual(
            try BuiltProducts.run("dbgen-plugin-tool", ["--version"]).stdoutText,
            try BuiltProducts.run("dbgen", ["--version"]).stdoutText)
    }

    /// A usage error and a failure read the same, with the same exit status.
    func testErrorsReadAsDBGens() throws {
        let dir = try TemporaryDirectory("dbgen-plugin-tool", removedAfter: self).url
        for arguments in [["check", "schema.txt"], ["missing.txt", "-o", "out.sqlite"], ["diff", "--nonsense"]] {
            let full = try BuiltProducts.run("dbgen", arguments, in: dir)
            let lean = try BuiltProducts.run("dbgen-plugin-tool", arguments, in: dir)
            XCTAssertNotEqual(full.status, 0, "\(arguments)")
            XCTAssertEqual(lean.status, full.status, "\(arguments)")
            XCTAssertEqual(lean.stderrText, full.stderrText, "\(arguments)")
        }
    }
}
