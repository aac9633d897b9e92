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
        var env = ProcessInfo.processInfo.environment
        for key in Self.removed { env[key] = nil }
        env.merge(environment) { _, new in new }
        let result = try VersionStampPrintSpawn.run(git, ["-C", (directory ?? root).path] + arguments,
                                                    environment: env, scratch: base)
        XCTAssertEqual(result.status, 0, "git \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
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

/// Runs a program with posix_spawn, output captured in scratch files: Foundation's `Process`
/// costs about 50 ms a launch here, which made the git-heavy tests slow.
enum VersionStampPrintSpawn {
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
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return (exitStatus, out, err)
    }
}
