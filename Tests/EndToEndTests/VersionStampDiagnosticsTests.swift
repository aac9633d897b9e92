import Foundation
import ShipyardTestSupport
import XCTest

/// Every error of every `versionstamp` subcommand is written by one printer: one
/// `PATH[:LINE]: error: MESSAGE` or `versionstamp: error: MESSAGE` line, the subcommand's usage
/// after a usage error (exit 64), exit 1 for failures (2 under `stamp --check`).
final class VersionStampDiagnosticsTests: XCTestCase {
    private let noRepository = ["VERSIONSTAMP_VERSION": "7"]

    /// Usage errors from the argument parser (an unknown option, a failed `validate()`) and from
    /// the library (`--set` without `=`, `--key` with `--placeholder`) read alike: the error line,
    /// then the usage of the subcommand that was called.
    func testUsageErrorsOfEverySourceReadAlike() throws {
        let cases: [(arguments: [String], message: String, subcommand: String)] = [
            (["print", "--frobnicate"], "Unknown option '--frobnicate'", "print"),
            (["print", "--offset", "12x"], "--offset '12x' is not an integer (such as 1000 or -5)", "print"),
            (["stamp", "Info.plist", "--tag-pattern", ""], "--tag-pattern must not be empty", "stamp"),
            (
                ["stamp", "Info.plist", "--set", "CFBundleVersion"],
                "--set 'CFBundleVersion': expected KEYPATH=FORMAT, such as CFBundleShortVersionString={version}",
                "stamp"
            ),
            (
                ["stamp", "Info.plist", "--key", "A", "--placeholder", "r0"],
                "--key and --placeholder cannot be used together: a stamp either sets keys or replaces a placeholder",
                "stamp"
            ),
            (
                ["stamp", "Info.plist", "--check", "--key", "A::B"],
                "invalid key path 'A::B': key paths look like 'CFBundleVersion' or 'Parent:Child:0', with no empty component",
                "stamp"
            ),
        ]
        for (arguments, message, subcommand) in cases {
            let result = try BuiltProducts.run("versionstamp", arguments, environment: noRepository)
            XCTAssertEqual(result.status, 64, "\(arguments) \(result.stderrText)")
            let lines = result.stderrText.components(separatedBy: "\n")
            XCTAssertEqual(lines.first, "versionstamp: error: \(message)", "\(arguments)")
            XCTAssertTrue(
                lines.count > 1 && lines[1].hasPrefix("Usage: versionstamp \(subcommand) "),
                "\(arguments) \(result.stderrText)")
            XCTAssertTrue(
                result.stderrText.hasSuffix("  See 'versionstamp \(subcommand) --help' for more information.\n"),
                result.stderrText)
            XCTAssertEqual(result.stdoutText, "", "\(arguments)")
        }
    }

    /// Failures are one line each, with the file's path (and line) when a file is concerned, and
    /// no usage; `print` exits 1, `stamp` 1, `stamp --check` 2.
    func testFailuresAreOneLineEach() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vs-diagnostics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<plist version=\"1.0\">\n<dict>\n<key>A</key>\n</dict>\n".utf8).write(
            to: directory.appendingPathComponent("Bad.plist"))
        let cases: [(arguments: [String], status: Int32, stderr: String)] = [
            (["print", "--repo", "No Such Directory"], 1, "No Such Directory: error: no such directory\n"),
            (["stamp", "Missing.plist"], 1, "Missing.plist: error: no such file\n"),
            (["stamp", "Missing.plist", "--check"], 2, "Missing.plist: error: no such file\n"),
            (["stamp", "Bad.plist", "Missing.plist"], 1, "Bad.plist:5: error: malformed XML: "),
        ]
        for (arguments, status, stderr) in cases {
            let environment = arguments[0] == "print" ? [:] : noRepository
            let result = try BuiltProducts.run(
                "versionstamp", arguments, in: directory, environment: environment,
                removing: arguments[0] == "print" ? ["VERSIONSTAMP_VERSION"] : [])
            XCTAssertEqual(result.status, status, "\(arguments) \(result.stderrText)")
            XCTAssertTrue(result.stderrText.hasPrefix(stderr), "\(arguments) \(result.stderrText)")
            XCTAssertFalse(result.stderrText.contains("Usage:"), "\(arguments) \(result.stderrText)")
            XCTAssertTrue(
                result.stderrText.components(separatedBy: "\n").dropLast().allSatisfy { $0.contains(": error: ") },
                "\(arguments) \(result.stderrText)")
        }
    }

    /// Help, `--version` and a bare `versionstamp` are no errors: stdout, exit 0.
    func testHelpAndVersionAreNoErrors() throws {
        for arguments in [["--version"], ["--help"], ["print", "--help"], ["help", "stamp"], []] {
            let result = try BuiltProducts.run("versionstamp", arguments)
            XCTAssertEqual(result.status, 0, "\(arguments) \(result.stderrText)")
            XCTAssertEqual(result.stderrText, "", "\(arguments)")
            XCTAssertFalse(result.stdoutText.isEmpty, "\(arguments)")
        }
    }
}
