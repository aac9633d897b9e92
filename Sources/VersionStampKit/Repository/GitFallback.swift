import CGit2
import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where libgit2 (1.5 to 1.9) refuses what git wrote, versionstamp gives git's answer anyway.
///
/// - An index with a mandatory extension libgit2 cannot read: the split index (`link`, written
///   with `core.splitIndex` or `git update-index --split-index`) and the sparse index (`sdir`,
///   `git sparse-checkout set --sparse-index`). libgit2's status then fails ("unsupported
///   mandatory extension"), as does opening such an index named by `GIT_INDEX_FILE`, and reading those formats here would be a second index reader to
///   keep in step with git's. git wrote that index, so git is installed: `{dirty}` asks it,
///   the way `git describe --dirty` itself answers (refresh the index, then `git diff-index
///   --quiet HEAD --`). Without git on `PATH` the error says so and how to turn the
///   extension off.
/// - A checked-out submodule: whether it makes the superproject dirty is git's rule (see
///   `GitRepository.hasTrackedChanges`), and git put it there. `{dirty}` asks git the same way.
/// - A tracked file libgit2 finds modified that git compares through a conversion libgit2
///   lacks (a filter driver such as git-lfs's, a `working-tree-encoding`): git configured
///   that conversion, so git is there. `{dirty}` asks git the same way.
/// - A commit whose date libgit2 rejects (git 2.39 writes a commit dated
///   1970-01-01T00:30+0100 as 2^64-1800 seconds): libgit2 cannot parse HEAD, so it can neither
///   peel HEAD to its tree for the status nor give its time. The history reader reads the
///   commit as git does (`RevisionReader` passes its tree and date on).
enum GitFallback {
    /// The mandatory extensions of the index at `path` (signatures that do not start with an
    /// upper-case letter, which git's index format reserves for optional ones); empty when the
    /// file is missing or not an index versionstamp can walk (libgit2 then reports on it).
    static func mandatoryIndexExtensions(at path: String) -> [String] {
        IndexWalk.read(path) { $0.mandatoryExtensions() } ?? []
    }

    /// Why `{dirty}` asks git rather than libgit2.
    enum Reason {
        /// The index's mandatory extensions libgit2 cannot read (split or sparse index).
        case indexExtensions([String])
        /// A checked-out submodule (this path), whose state git judges (see `GitRepository.hasTrackedChanges`).
        case submodule(String)
        /// A tracked file whose content git converts (a filter driver, a working-tree encoding)
        /// before comparing it, as libgit2 does not.
        case conversion(path: String, String)

        /// Why, for an error message.
        var explanation: String {
            switch self {
            case .indexExtensions(let names):
                return "the index uses the extension \(names.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "(split or sparse index), which libgit2 cannot read"
            case .submodule(let path):
                return "the submodule '\(path)' is checked out, and whether it is dirty is git's to judge"
            case .conversion(let path, let conversion):
                return "'\(path)' is compared through \(conversion), which only git applies"
            }
        }

        /// What else the person can do when git is missing.
        var remedy: String {
            switch self {
            case .indexExtensions:
                return "install git, or turn the extension off "
                    + "('git update-index --no-split-index', 'git sparse-checkout set --no-sparse-index')"
            case .submodule, .conversion:
                return "install git, or leave {dirty} out of the format"
            }
        }
    }

    /// `git describe --dirty`'s answer, from git: do tracked files differ from HEAD in the index
    /// or the work tree? Runs `git update-index -q --refresh` (as describe refreshes the
    /// index; a failure there, such as a locked index, is ignored as describe ignores it) and
    /// `git diff-index --quiet HEAD --` over exactly the repository libgit2 opened.
    static func hasTrackedChanges(
        gitDirectory: String, workDirectory: String, becauseOf reason: Reason,
        environment: [String: String]
    ) throws -> Bool {
        guard let git = executable("git", path: environment["PATH"]) else {
            throw VersionStampError(
                .gitFailure, path: workDirectory,
                message: "\(reason.explanation), and git, which {dirty} then asks, is not on PATH; \(reason.remedy)")
        }
        let repository = ["--git-dir=" + gitDirectory, "--work-tree=" + workDirectory]
        _ = try run(
            git, repository + ["update-index", "-q", "--ignore-submodules", "--refresh"], environment: environment)
        let status = try run(git, repository + ["diff-index", "--quiet", "HEAD", "--"], environment: environment)
        guard status.code == 0 || status.code == 1 else {
            throw VersionStampError(
                .gitFailure, path: workDirectory,
                message: "\(reason.explanation), and 'git diff-index' failed (exit \(status.code)): \(status.error)")
        }
        return status.code == 1
    }

    /// The first executable `name` in the directories of `path` (a `PATH` value).
    private static func executable(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `tool` with `arguments`; its exit status (128 + the signal when one ended it) and
    /// standard error (standard output is discarded). Spawned directly: Foundation's `Process`
    /// sets up a thread and a run loop to watch the child, which costs several times git's own
    /// work, and a superproject with a submodule runs two each build (docs/Performance.md).
    private static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> (
        code: Int32, error: String
    ) {
        var variables = environment
        variables["LC_ALL"] = "C"
        variables["GIT_TERMINAL_PROMPT"] = "0"
        guard let errors = POSIXFile.pipe() else {
            throw VersionStampError(.gitFailure, message: "cannot run \(tool): \(String(cString: strerror(errno)))")
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, tool, &actions, nil, argv, envp)
        close(errors.write)
        defer { close(errors.read) }
        guard spawned == 0 else {
            throw VersionStampError(.gitFailure, message: "cannot run \(tool): \(String(cString: strerror(spawned)))")
        }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(errors.read, &buffer, buffer.count)
            if count > 0 {
                text += buffer[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let message = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
        return (code, message)
    }
}

extension GitRepository {
    /// True when libgit2 parses `commit` (it rejects some that git reads, see `GitFallback`).
    func canParseCommit(_ commit: git_oid) -> Bool {
        var id = commit
        var object: OpaquePointer?
        defer { git_commit_free(object) }
        return git_commit_lookup(&object, handle, &id) == 0
    }
}
