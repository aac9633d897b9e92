import Foundation
import VersionStampKit
import XCTest

/// A git repository created with the git CLI for a test, and git's own answers for each
/// format token (the oracle the libgit2 reader is compared with).
final class RevisionTestRepository {
    /// The repository's work tree (or the directory holding it).
    let root: URL
    /// HOME for git: an empty temporary directory, so no user configuration leaks in.
    let home: URL
    private var tick = 0

    /// A fresh temporary directory with an empty `home`; `init` runs `git init` unless `initialize` is false.
    init(_ test: XCTestCase, initialize: Bool = true) throws {
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("versionstamp-revision-\(UUID().uuidString)", isDirectory: true)
        root = base.appendingPathComponent("repo", isDirectory: true)
        home = base.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: base) }
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
        return env
    }

    /// Runs git in `directory` (default: the repository) and returns its trimmed stdout;
    /// throws on a non-zero exit unless `allowFailure`.
    @discardableResult
    func git(_ arguments: String..., in directory: URL? = nil, allowFailure: Bool = false, stdin: Data? = nil) throws -> String {
        try runGit(arguments, in: directory, allowFailure: allowFailure, stdin: stdin).output
    }

    /// Runs git and returns its exit status and trimmed stdout.
    func runGit(_ arguments: [String], in directory: URL? = nil, allowFailure: Bool = false, stdin: Data? = nil) throws -> (status: Int32, output: String) {
        var env = environment
        tick += 1
        let date = "@\(1_700_000_000 + tick * 3600) +0000"
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
        let result = try SpawnedProcess.run("/usr/bin/git", ["-C", (directory ?? root).path] + arguments,
                                            environment: env, stdin: stdin, scratch: root.deletingLastPathComponent())
        let text = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if result.status != 0 && !allowFailure {
            throw VersionStampError(message: "git \(arguments.joined(separator: " ")) failed: \(String(decoding: result.stderr, as: UTF8.self))")
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

    /// Asserts that every token rendered by versionstamp (discovery from `directory`) equals git's answer.
    func assertTokensMatchGit(in directory: URL? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let answers = try gitAnswers(in: directory)
        let context = try VersionContext.load(repository: (directory ?? root).path, environment: environment)
        for token in VersionToken.allCases {
            let rendered = try context.render("{\(token.rawValue)}")
            XCTAssertEqual(rendered, answers[token], "{\(token.rawValue)}", file: file, line: line)
        }
        // One render of all tokens together (the lazy reader fills fields in any order).
        let fresh = try VersionContext.load(repository: (directory ?? root).path, environment: environment)
        let all = VersionToken.allCases.map { "{\($0.rawValue)}" }.joined(separator: "|")
        XCTAssertEqual(try fresh.render(all), VersionToken.allCases.map { answers[$0]! }.joined(separator: "|"),
                       file: file, line: line)
    }
}

/// Runs a program with posix_spawn, output captured in scratch files: Foundation's `Process`
/// costs about 50 ms a launch here, which made the git-heavy tests slow.
enum SpawnedProcess {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    stdin: Data? = nil, scratch: URL) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let id = UUID().uuidString
        let inPath = scratch.appendingPathComponent(".spawn-\(id).in").path
        let outPath = scratch.appendingPathComponent(".spawn-\(id).out").path
        let errPath = scratch.appendingPathComponent(".spawn-\(id).err").path
        defer { for path in [inPath, outPath, errPath] { unlink(path) } }
        _ = FileManager.default.createFile(atPath: inPath, contents: stdin ?? Data())
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw VersionStampError(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return (exitStatus, out, err)
    }
}
