import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// A git repository created with the git CLI for a test, and git's own answers for each
/// format token (the oracle the libgit2 reader is compared with).
final class RevisionTestRepository {
    /// The repository's work tree (or the directory holding it).
    let root: URL
    /// HOME for git: an empty temporary directory, so no user configuration leaks in.
    let home: URL
    /// git's environment variables (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, …) that git
    /// and versionstamp both run with from now on: the oracle answers for the repository they
    /// name, as versionstamp must.
    var variables: [String: String] = [:]
    private var tick = 0

    /// A fresh temporary directory with an empty `home`; `init` runs `git init` unless `initialize` is false.
    init(_ test: XCTestCase, initialize: Bool = true) throws {
        let base = try TemporaryDirectory("versionstamp-revision", removedAfter: test)
        test.addTeardownBlock { withExtendedLifetime(base) {} }
        root = base.url("repo")
        home = base.url("home")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        if initialize {
            try git("init", "-q", "-b", "main")
            try git("config", "user.name", "Test Author")
            try git("config", "user.email", "test@example.com")
        }
    }

    /// The environment git and versionstamp run with (no system or user configuration).
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("GIT_") { env[key] = nil }
        env["VERSIONSTAMP_VERSION"] = nil
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.path
        env["GIT_CEILING_DIRECTORIES"] = root.deletingLastPathComponent().path
        env["TZ"] = "UTC"
        env["GIT_AUTHOR_NAME"] = "Test Author"
        env["GIT_AUTHOR_EMAIL"] = "test@example.com"
        env["GIT_COMMITTER_NAME"] = "Test Author"
        env["GIT_COMMITTER_EMAIL"] = "test@example.com"
        env.merge(variables) { $1 }
        return env
    }

    /// Runs git in `directory` (default: the repository) and returns its trimmed stdout;
    /// throws on a non-zero exit unless `allowFailure`.
    @discardableResult
    func git(_ arguments: String..., in directory: URL? = nil, allowFailure: Bool = false, stdin: Data? = nil) throws
        -> String
    {
        try runGit(arguments, in: directory, allowFailure: allowFailure, stdin: stdin).output
    }

    /// Runs git and returns its exit status and trimmed stdout.
    func runGit(_ arguments: [String], in directory: URL? = nil, allowFailure: Bool = false, stdin: Data? = nil) throws
        -> (status: Int32, output: String)
    {
        var env = environment
        tick += 1
        let date = "@\(1_700_000_000 + tick * 3600) +0000"
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
        // The variables `environment` dropped (GIT_DIR, …) must not be inherited either.
        let dropped = ProcessInfo.processInfo.environment.keys.filter { env[$0] == nil }
        let result = try ProcessRunner.run(
            try Oracle.git.path(), ["-C", (directory ?? root).path] + arguments,
            environment: env, removing: Array(dropped), input: stdin)
        let text = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        if result.status != 0 && !allowFailure {
            throw GitFailed(arguments: arguments, stderr: result.stderrText)
        }
        return (result.status, text)
    }

    /// Writes `content` to `path` (relative to the repository), creating directories.
    func write(_ path: String, _ content: String, in directory: URL? = nil) throws {
        let url = (directory ?? root).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(content.utf8).write(to: url)
    }

    /// Writes a file and commits it (a distinct commit date each time).
    func commit(_ message: String, file: String? = nil, in directory: URL? = nil) throws {
        try write(file ?? "file-\(message).txt", "\(message)\n", in: directory)
        try git("add", "-A", in: directory)
        try git("commit", "-q", "-m", message, in: directory)
    }

    /// git's answer for every token, asked in `directory` (default: the repository).
    func gitAnswers(in directory: URL? = nil, dirtyMarker: String = "M") throws -> [VersionToken: String] {
        let dir = directory ?? root
        let count = try git("rev-list", "--count", "HEAD", in: dir)
        let parsed = try git("rev-parse", "HEAD", "--abbrev-ref", "HEAD", in: dir).components(separatedBy: "\n")
        let logged = try git("log", "-1", "--date=format-local:%Y%m%d", "--format=%ct%n%cd", in: dir)
            .components(separatedBy: "\n")
        let describe = try git("describe", "--tags", "--long", "--always", "--dirty", in: dir)
        var answers: [VersionToken: String] = [
            .count: count, .sha: parsed[0], .branch: parsed[1],
            .short: try git("rev-parse", "--short", "HEAD", in: dir),
            .describe: describe, .timestamp: logged[0], .date: logged[1],
        ]
        // With --long the description ends in the id unless git appended "-dirty".
        answers[.dirty] = describe.hasSuffix("-dirty") ? dirtyMarker : ""
        let described = try runGit(["describe", "--tags", "--long"], in: dir, allowFailure: true)
        if described.status == 0 {
            // TAG-DISTANCE-gHEX, the tag may contain '-'.
            var parts = described.output.components(separatedBy: "-")
            parts.removeLast()
            answers[.distance] = parts.removeLast()
            answers[.tag] = parts.joined(separator: "-")
        } else {
            answers[.tag] = ""
            answers[.distance] = count
        }
        return answers
    }

    /// Asserts that every token rendered by versionstamp (discovery from `directory`) equals git's
    /// answer; with `only`, those tokens alone (a shallow clone's, say). `label` names the
    /// case in failure messages.
    func assertTokensMatchGit(
        in directory: URL? = nil, only: [VersionToken]? = nil, label: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let answers = try gitAnswers(in: directory)
        let context = try VersionContext.load(repository: (directory ?? root).path, environment: environment)
        // {version} and {prerelease} parse {tag}: ReleaseVersionTests and the end-to-end tests cover them.
        let tokens = only ?? VersionToken.allCases.filter { !$0.needsReleaseVersion }
        for token in tokens {
            let rendered = try context.render("{\(token.rawValue)}")
            XCTAssertEqual(rendered, answers[token], "{\(token.rawValue)} \(label)", file: file, line: line)
        }
        // One render of all tokens together (the lazy reader fills fields in any order).
        let fresh = try VersionContext.load(repository: (directory ?? root).path, environment: environment)
        let all = tokens.map { "{\($0.rawValue)}" }.joined(separator: "|")
        XCTAssertEqual(
            try fresh.render(all), tokens.map { answers[$0]! }.joined(separator: "|"), label,
            file: file, line: line)
    }
}

/// A git command of a test failed.
struct GitFailed: Error, CustomStringConvertible {
    var arguments: [String]
    var stderr: String
    var description: String { "git \(arguments.joined(separator: " ")) failed: \(stderr)" }
}
