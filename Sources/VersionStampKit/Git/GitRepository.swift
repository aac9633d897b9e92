import CGit2
import Foundation

/// A git repository opened with libgit2 (1.5.1): discovery like `git -C DIR`, and the few
/// reads versionstamp needs. Opening checks up front what libgit2 cannot handle (shallow
/// clones, unsupported extensions, unborn HEAD) so the errors say what to do.
final class GitRepository {
    /// The libgit2 handle; freed on deinit.
    let handle: OpaquePointer

    /// The repository's git dir (`.git`, or `.git/worktrees/NAME` for a linked worktree).
    let gitDirectory: String
    /// The common git dir (shared by all worktrees): where objects and refs live.
    let commonDirectory: String
    /// The work tree, nil for a bare repository.
    let workDirectory: String?

    /// Opens the repository found from `start` (default: the current directory) upwards,
    /// honouring `GIT_CEILING_DIRECTORIES` from `environment`, as git does.
    init(discoveringFrom start: String?, environment: [String: String]) throws {
        GitLibrary.initialize()
        let startPath = start ?? FileManager.default.currentDirectoryPath
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: startPath, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw VersionStampError(.noSuchDirectory, path: startPath, message: "no such directory")
        }
        var repo: OpaquePointer?
        let ceiling = environment["GIT_CEILING_DIRECTORIES"]
        let status = git_repository_open_ext(&repo, startPath, 0, ceiling)
        guard status == 0, let repo else {
            let message = GitLibrary.lastErrorMessage()
            // libgit2 1.5.1 reports its ownership check as "config value 'safe.directory' was not found".
            if message.contains("safe.directory") || message.contains("not owned by current user") {
                throw VersionStampError(.repositoryOwnership,
                    path: startPath,
                    message: "the repository is owned by another user, so git and libgit2 refuse it (\"dubious ownership\"); "
                        + "if it is trusted, mark it safe with 'git config --global --add safe.directory DIR'")
            }
            if status == GIT_ENOTFOUND.rawValue {
                throw VersionStampError(.notARepository,
                    path: startPath,
                    message: "not a git repository (or any of the parent directories); "
                        + "set VERSIONSTAMP_VERSION to build without one (e.g. from a source tarball)")
            }
            throw GitRepository.openError(startPath: startPath, libgit2Message: message)
        }
        handle = repo
        gitDirectory = GitRepository.trimmed(String(cString: git_repository_path(repo)))
        commonDirectory = GitRepository.trimmed(String(cString: git_repository_commondir(repo)))
        workDirectory = git_repository_workdir(repo).map { GitRepository.trimmed(String(cString: $0)) }
    }

    deinit { git_repository_free(handle) }

    /// Turns libgit2's refusal to open a repository into a versionstamp error; an unsupported
    /// repository extension is named (libgit2 1.5.1 refuses e.g. `extensions.worktreeConfig`).
    private static func openError(startPath: String, libgit2Message: String) -> VersionStampError {
        let lowered = libgit2Message.lowercased()
        if lowered.contains("extension") {
            // libgit2: "unsupported extension name extensions.worktreeconfig"
            let name = libgit2Message.split(separator: " ").last.map(String.init) ?? libgit2Message
            return VersionStampError(.unsupportedExtension,
                path: startPath,
                message: "the repository uses the unsupported repository extension '\(name)' "
                    + "(libgit2 cannot read it: \(libgit2Message)); set VERSIONSTAMP_VERSION to build without reading the repository")
        }
        return VersionStampError(.gitFailure, path: startPath, message: "cannot open the git repository: \(libgit2Message)")
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The path to report in errors: the work tree, else the git dir.
    var displayPath: String { workDirectory ?? gitDirectory }

    /// True for a shallow clone (libgit2 1.5.1 cannot walk its history).
    var isShallow: Bool { git_repository_is_shallow(handle) == 1 }

    /// True when HEAD names a branch that has no commit yet.
    var isHeadUnborn: Bool { git_repository_head_unborn(handle) == 1 }

    /// True when HEAD points directly at a commit.
    var isHeadDetached: Bool { git_repository_head_detached(handle) == 1 }

    /// The full name of the reference HEAD resolves to (`refs/heads/main`), nil when detached.
    func headReferenceName() throws -> String? {
        if isHeadDetached { return nil }
        var ref: OpaquePointer?
        try GitLibrary.check(git_repository_head(&ref, handle), "reading HEAD")
        defer { git_reference_free(ref) }
        return String(cString: git_reference_name(ref))
    }

    /// True when `name` names an existing reference.
    func referenceExists(_ name: String) -> Bool {
        var oid = git_oid()
        return git_reference_name_to_id(&oid, handle, name) == 0
    }

    /// The commit HEAD points to.
    func headCommitID() throws -> git_oid {
        var oid = git_oid()
        try GitLibrary.check(git_reference_name_to_id(&oid, handle, "HEAD"), "reading HEAD")
        return oid
    }

    /// The committer time of `commit`, Unix seconds.
    func commitTime(_ commit: git_oid) throws -> Int64 {
        var id = commit
        var object: OpaquePointer?
        try GitLibrary.check(git_commit_lookup(&object, handle, &id), "reading commit \(id.hex)")
        defer { git_commit_free(object) }
        return Int64(git_commit_time(object))
    }

    /// A string value of the repository's configuration (all levels), nil when unset.
    func configString(_ name: String) -> String? {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, handle) == 0 else { return nil }
        defer { git_config_free(config) }
        var value: UnsafePointer<CChar>?
        guard git_config_get_string(&value, config, name) == 0, let value else { return nil }
        return String(cString: value)
    }

    /// The number of commits reachable from `tip` but not from any of `hidden`
    /// (`git rev-list --count TIP ^HIDDEN...`).
    func countCommits(from tip: git_oid, hiding hidden: [git_oid] = []) throws -> Int {
        var walk: OpaquePointer?
        try GitLibrary.check(git_revwalk_new(&walk, handle), "walking the history")
        defer { git_revwalk_free(walk) }
        git_revwalk_sorting(walk, GIT_SORT_NONE.rawValue)
        var start = tip
        try GitLibrary.check(git_revwalk_push(walk, &start), "walking the history")
        for var oid in hidden {
            try GitLibrary.check(git_revwalk_hide(walk, &oid), "walking the history")
        }
        var count = 0
        var next = git_oid()
        while true {
            let status = git_revwalk_next(&next, walk)
            if status == GIT_ITEROVER.rawValue { break }
            try GitLibrary.check(status, "walking the history")
            count += 1
        }
        return count
    }

    /// True when tracked files differ from HEAD in the index or the work tree, as
    /// `git describe --dirty` sees it: untracked files and submodules are ignored, no rename
    /// detection. A bare repository is never dirty.
    func hasTrackedChanges() throws -> Bool {
        if workDirectory == nil { return false }
        var options = git_status_options()
        try GitLibrary.check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "checking the work tree")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        var list: OpaquePointer?
        try GitLibrary.check(git_status_list_new(&list, handle, &options), "checking the work tree")
        defer { git_status_list_free(list) }
        return git_status_list_entrycount(list) > 0
    }

    /// The nearest tag reachable from `commit` (among those matching the glob `pattern`, when
    /// given) and the number of commits since it, as `git describe --tags [--match PATTERN]`
    /// chooses it; nil when no such tag is reachable.
    func describeTags(_ commit: git_oid, matching pattern: String? = nil) throws -> (tag: String, distance: Int)? {
        var id = commit
        var object: OpaquePointer?
        try GitLibrary.check(git_object_lookup(&object, handle, &id, GIT_OBJECT_COMMIT), "reading HEAD")
        defer { git_object_free(object) }
        var options = git_describe_options()
        try GitLibrary.check(git_describe_options_init(&options, UInt32(GIT_DESCRIBE_OPTIONS_VERSION)), "describing HEAD")
        options.describe_strategy = GIT_DESCRIBE_TAGS.rawValue
        options.show_commit_oid_as_fallback = 0
        var result: OpaquePointer?
        let status = GitLibrary.withOptionalCString(pattern) { pattern in
            options.pattern = pattern
            return git_describe_commit(&result, object, &options)
        }
        if status < 0, let error = git_error_last(), error.pointee.klass == GIT_ERROR_DESCRIBE.rawValue {
            // "no reference found" / "No tags can describe": no tag is reachable.
            return nil
        }
        try GitLibrary.check(status, "describing HEAD")
        defer { git_describe_result_free(result) }
        var format = git_describe_format_options()
        try GitLibrary.check(git_describe_format_options_init(&format, UInt32(GIT_DESCRIBE_FORMAT_OPTIONS_VERSION)), "describing HEAD")
        format.always_use_long_format = 1
        var buffer = git_buf()
        try GitLibrary.check(git_describe_format(&buffer, result, &format), "describing HEAD")
        defer { git_buf_dispose(&buffer) }
        let text = String(cString: buffer.ptr)
        // "TAG-DISTANCE-gHEX": parse from the right, a tag name may contain '-'.
        guard let gRange = text.range(of: "-g", options: .backwards),
              let dash = text[..<gRange.lowerBound].lastIndex(of: "-"),
              let distance = Int(text[text.index(after: dash)..<gRange.lowerBound])
        else {
            throw VersionStampError(.gitFailure, message: "unexpected description from libgit2: \(text)")
        }
        return (String(text[..<dash]), distance)
    }
}

/// Process-wide libgit2 set-up.
enum GitLibrary {
    private static let initialized: Bool = {
        git_libgit2_init()
        // Like git, do not re-hash every object read (a cold count reads every commit).
        _ = shipyard_git_set_strict_hash_verification(0)
        return true
    }()

    /// Calls `git_libgit2_init` once per process.
    static func initialize() { _ = initialized }

    /// libgit2's message for the last failure in this thread.
    static func lastErrorMessage() -> String {
        if let error = git_error_last(), let message = error.pointee.message {
            return String(cString: message)
        }
        return "unknown libgit2 error"
    }

    /// Calls `body` with `string` as a C string (nil stays nil), valid during the call only.
    static func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }

    /// Throws a `VersionStampError` when `status` is a libgit2 failure.
    static func check(_ status: Int32, _ doing: String) throws {
        if status < 0 {
            throw VersionStampError(.gitFailure, message: "\(doing): \(lastErrorMessage())")
        }
    }
}

extension git_oid {
    /// The 40-digit hexadecimal id.
    var hex: String {
        var copy = self
        var buffer = [CChar](repeating: 0, count: 41)
        git_oid_fmt(&buffer, &copy)
        return String(cString: buffer)
    }

    /// Parses a 40-digit hexadecimal id.
    init?(hex: String) {
        guard hex.utf8.count == 40 else { return nil }
        self.init()
        if git_oid_fromstr(&self, hex) != 0 { return nil }
    }
}
