import Foundation
import XCTest

/// A git repository built with the git CLI for `versionstamp print` end-to-end tests, with
/// an isolated environment (no system or user configuration, fixed dates).
struct VersionStampPrintGitFixture {
    let base: URL
    let root: URL
    let environment: [String: String]
    let git: String

    init(_ test: XCTestCase) throws {
        base = try makeTemporaryDirectory(test, name: "versionstamp-print")
        root = base.appendingPathComponent("repo", isDirectory: true)
        let home = base.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "GIT_CONFIG_NOSYSTEM": "1", "HOME": home.path, "XDG_CONFIG_HOME": home.path,
            "GIT_CEILING_DIRECTORIES": base.path, "TZ": "UTC",
            "GIT_AUTHOR_NAME": "Print Test", "GIT_AUTHOR_EMAIL": "print@example.com",
            "GIT_COMMITTER_NAME": "Print Test", "GIT_COMMITTER_EMAIL": "print@example.com",
            "GIT_AUTHOR_DATE": "@1700000000 +0100", "GIT_COMMITTER_DATE": "@1700003600 -0500",
        ]
        guard let git = CommandRunner.which("git") else { throw XCTSkip("git is not installed") }
        self.git = git
    }

    /// Environment variables the tests must not inherit.
    static let removed = ["VERSIONSTAMP_VERSION", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"]

    /// Runs git in `directory` (default: the repository); fails the test on a non-zero exit.
    @discardableResult
    func run(_ arguments: String..., in directory: URL? = nil) throws -> String {
        let result = try CommandRunner.run(git, arguments, in: directory ?? root, environment: environment,
                                           removingEnvironment: Self.removed)
        XCTAssertEqual(result.status, 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes a file and commits everything.
    func commit(_ name: String) throws {
        try Data("\(name)\n".utf8).write(to: root.appendingPathComponent("\(name).txt"))
        try run("add", "-A")
        try run("commit", "-q", "-m", name)
    }

    /// `versionstamp ARGUMENTS` run in `directory` with the fixture's environment.
    func versionstamp(_ arguments: [String], in directory: URL? = nil, extra: [String: String] = [:]) throws -> CommandResult {
        try CommandRunner.runProduct("versionstamp", arguments, in: directory ?? base,
                                     environment: environment.merging(extra) { _, new in new },
                                     removingEnvironment: Self.removed)
    }
}
