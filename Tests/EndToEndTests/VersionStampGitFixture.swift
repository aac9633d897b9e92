import Foundation
import ShipyardTestSupport
import XCTest

/// A git repository built with the git CLI (the oracle) for `versionstamp` end-to-end tests,
/// with an isolated environment: no system or user configuration, fixed dates.
struct VersionStampGitFixture {
    /// The temporary directory holding `repo` and `home` (removed when the test ends).
    let base: URL
    /// The repository's work tree (created empty; `git init` is the test's choice).
    let root: URL
    /// What git and versionstamp run with, on top of the test's environment.
    let environment: [String: String]

    init(_ test: XCTestCase) throws {
        let directory = try TemporaryDirectory("versionstamp-e2e", removedAfter: test)
        test.addTeardownBlock { withExtendedLifetime(directory) {} }
        base = directory.url
        root = directory.url("repo")
        let home = directory.url("home")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "GIT_CONFIG_NOSYSTEM": "1", "HOME": home.path, "XDG_CONFIG_HOME": home.path,
            "GIT_CEILING_DIRECTORIES": base.path, "TZ": "UTC",
            "GIT_AUTHOR_NAME": "Print Test", "GIT_AUTHOR_EMAIL": "print@example.com",
            "GIT_COMMITTER_NAME": "Print Test", "GIT_COMMITTER_EMAIL": "print@example.com",
            "GIT_AUTHOR_DATE": "@1700000000 +0100", "GIT_COMMITTER_DATE": "@1700003600 -0500",
        ]
    }

    /// Environment variables the tests must not inherit.
    static let removed = [
        "VERSIONSTAMP_VERSION", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
        "BUILT_PRODUCTS_DIR", "INFOPLIST_PATH", "CI_BUILD_NUMBER", "GITHUB_RUN_NUMBER",
    ]

    /// Runs git in `directory` (default: the repository) and returns its trimmed output;
    /// fails the test on a non-zero exit. A missing git fails the test too.
    @discardableResult
    func run(_ arguments: String..., in directory: URL? = nil) throws -> String {
        try git(arguments, in: directory)
    }

    /// ``run(_:in:)`` with the arguments as an array.
    @discardableResult
    func git(_ arguments: [String], in directory: URL? = nil, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let result = try ProcessRunner.run(
            try Oracle.git.path(), ["-C", (directory ?? root).path] + arguments,
            environment: environment, removing: Self.removed)
        XCTAssertEqual(
            result.status, 0, "git \(arguments.joined(separator: " ")): \(result.stderrText)", file: file, line: line)
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes `name` (relative to the repository, directories created) and commits everything.
    func commit(_ name: String, contents: String? = nil, message: String? = nil) throws {
        let url = root.appendingPathComponent(name.contains(".") ? name : "\(name).txt")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((contents ?? "\(name)\n").utf8).write(to: url)
        try run("add", "-A")
        try run("commit", "-q", "-m", message ?? name)
    }

    /// `versionstamp ARGUMENTS` run in `directory` (default: `base`) with the fixture's environment.
    func versionstamp(_ arguments: [String], in directory: URL? = nil, extra: [String: String] = [:]) throws
        -> ProcessResult
    {
        try BuiltProducts.run(
            "versionstamp", arguments, in: directory ?? base,
            environment: environment.merging(extra) { _, new in new }, removing: Self.removed)
    }
}
