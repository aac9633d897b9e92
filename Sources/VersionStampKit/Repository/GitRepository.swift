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
import EssentialsSupport

/// A git repository opened with libgit2 (1.5 to 1.9): discovery like `git -C DIR`, and what
/// libgit2 is the right tool for: HEAD and references, the branch name, configuration, the
/// work-tree status (`{dirty}`) and HEAD's commit time. Opening turns what libgit2 cannot
/// handle (unsupported extensions, another user's repository) into errors that say what to do.
/// History (counts, describe) is read by `HistoryEngine`.
final class GitRepository {
    /// The libgit2 handle; freed on deinit.
    let handle: OpaquePointer

    /// The repository's git dir (`.git`, or `.git/worktrees/NAME` for a linked worktree).
    let gitDirectory: String
    /// The common git dir (shared by all worktrees): where objects and refs live.
    let commonDirectory: String
    /// The work tree, nil for a bare repository.
    let workDirectory: String?
    /// The object directories git reads, the repository's own first, then its alternates
    /// (`RepositoryEnvironment.objectDirectories`): where `ObjectStore` finds packs.
    let objectDirectories: [String]
    /// The index `{dirty}` compares: `GIT_INDEX_FILE` (relative to where the command runs, as
    /// `RepositoryEnvironment` reads it), else the git dir's `index`.
    let indexPath: String
    /// The mandatory extensions of a `GIT_INDEX_FILE` libgit2 cannot read (a split or sparse
    /// index), whose `{dirty}` git answers; empty when libgit2 reads the index `{dirty}` compares.
    let unreadableIndexExtensions: [String]
    /// The variables that enable and place replace refs and grafts (`ObjectReplacements`).
    private let replacementSettings: [String: String]
    private var loadedReplacements: ObjectReplacements?

    /// Opens the repository found from `start` (default: the current directory) upwards, or the
    /// one git's environment variables in `environment` name (`GIT_DIR`, `GIT_WORK_TREE`,
    /// `GIT_INDEX_FILE`, `GIT_OBJECT_DIRECTORY`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`,
    /// `GIT_COMMON_DIR`, `GIT_CEILING_DIRECTORIES`; see `RepositoryEnvironment`), as git does.
    init(discoveringFrom start: String?, environment: [String: String]) throws {
        try GitLibrary.requireLoaded()
        GitLibrary.initialize()
        let startPath = start ?? FileManager.default.currentDirectoryPath
        if FileManager.default.isDirectory(atPath: startPath) != true {
            throw VersionStampError(.noSuchDirectory, path: startPath, message: "no such directory")
        }
        let variables = RepositoryEnvironment(environment, base: startPath)
        var repo: OpaquePointer?
        let status: Int32
        if let gitDir = variables.gitDirectory {
            let flags = GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue | GIT_REPOSITORY_OPEN_NO_DOTGIT.rawValue
            status = git_repository_open_ext(&repo, gitDir, flags, nil)
        } else {
            status = git_repository_open_ext(&repo, startPath, 0, variables.ceilingDirectories)
        }
        guard status == 0, let repo else {
            let message = GitLibrary.lastErrorMessage()
            let errorClass = GitLibrary.lastErrorClass()
            // The ownership check ("dubious ownership"): libgit2 1.6 and later fail with GIT_EOWNER;
            // 1.5 fails with GIT_ENOTFOUND from looking up safe.directory, an error of the
            // configuration (GIT_ERROR_CONFIG) where "not a repository" is one of the repository.
            if status == GIT_EOWNER.rawValue
                || (status == GIT_ENOTFOUND.rawValue && errorClass == GIT_ERROR_CONFIG.rawValue)
            {
                throw VersionStampError(
                    .repositoryOwnership,
                    path: startPath,
                    message:
                        "the repository is owned by another user, so git and libgit2 refuse it (\"dubious ownership\"); "
                        + "if it is trusted, mark it safe with 'git config --global --add safe.directory DIR'")
            }
            if status == GIT_ENOTFOUND.rawValue, let gitDir = variables.gitDirectory {
                throw VersionStampError(
                    .notARepository,
                    path: gitDir,
                    message: "GIT_DIR names no git repository; point it at a repository's git dir, or unset it")
            }
            if status == GIT_ENOTFOUND.rawValue {
                throw VersionStampError(
                    .notARepository,
                    path: startPath,
                    message: "not a git repository (or any of the parent directories); "
                        + "set VERSIONSTAMP_VERSION to build without one (e.g. from a source tarball)")
            }
            // An unsupported extension is a failure of the repository class; the extension is
            // found by reading the repository's own configuration (`RepositoryExtensions`).
            if errorClass == GIT_ERROR_REPOSITORY.rawValue,
                let name = RepositoryExtensions.firstUnsupported(
                    gitDirectory: variables.gitDirectory, start: startPath,
                    ceilingDirectories: variables.ceilingDirectories)
            {
                throw VersionStampError(
                    .unsupportedExtension,
                    path: startPath,
                    message: "the repository uses the unsupported repository extension '\(name)' "
                        + "(libgit2 cannot read it: \(message)); set VERSIONSTAMP_VERSION to build without reading the repository"
                )
            }
            throw VersionStampError(.gitFailure, path: startPath, message: "cannot open the git repository: \(message)")
        }
        handle = repo
        let common = GitRepository.trimmed(String(cString: git_repository_commondir(repo)))
        do {
            unreadableIndexExtensions = try variables.apply(to: repo, start: startPath, commonDirectory: common)
        } catch {
            git_repository_free(repo)
            throw error
        }
        gitDirectory = GitRepository.trimmed(String(cString: git_repository_path(repo)))
        commonDirectory = common
        workDirectory = git_repository_workdir(repo).map { GitRepository.trimmed(String(cString: $0)) }
        indexPath = variables.indexFile ?? gitDirectory + "/index"
        replacementSettings = environment.filter {
            ["GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE"].contains($0.key)
        }
        objectDirectories = RepositoryEnvironment.objectDirectories(
            primary: variables.objectDirectory ?? common + "/objects", alternates: variables.alternateObjectDirectories)
    }

    deinit { git_repository_free(handle) }

    /// `path` without a trailing `/` (the root excepted), as libgit2 ends the directories it gives.
    static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The path to report in errors: the work tree, else the git dir.
    var displayPath: String { workDirectory ?? gitDirectory }

    /// True for a shallow clone (libgit2 1.5 and 1.6 cannot walk its history; it is incomplete either way).
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

    /// Every reference whose name starts with `prefix` (`refs/tags/`) and the object it points
    /// to, a symbolic one followed (one whose target is missing is left out); in no order.
    func references(under prefix: String) throws -> [(name: String, target: git_oid)] {
        var iterator: OpaquePointer?
        try GitLibrary.check(git_reference_iterator_glob_new(&iterator, handle, prefix + "*"), "listing \(prefix)")
        defer { git_reference_iterator_free(iterator) }
        var found: [(name: String, target: git_oid)] = []
        var reference: OpaquePointer?
        while git_reference_next(&reference, iterator) == 0 {
            defer { git_reference_free(reference) }
            let name = String(cString: git_reference_name(reference))
            guard name.hasPrefix(prefix) else { continue }
            if let target = git_reference_target(reference) {
                found.append((name, target.pointee))
                continue
            }
            var resolved: OpaquePointer?
            guard git_reference_resolve(&resolved, reference) == 0 else { continue }
            defer { git_reference_free(resolved) }
            if let target = git_reference_target(resolved) { found.append((name, target.pointee)) }
        }
        return found
    }

    /// The commit HEAD points to.
    func headCommitID() throws -> git_oid {
        var oid = git_oid()
        try GitLibrary.check(git_reference_name_to_id(&oid, handle, "HEAD"), "reading HEAD")
        return oid
    }

    /// The replace refs and grafts in force (read once): what git reads in place of objects.
    func replacements() throws -> ObjectReplacements {
        if let loadedReplacements { return loadedReplacements }
        let loaded = try ObjectReplacements(repository: self, environment: replacementSettings)
        loadedReplacements = loaded
        return loaded
    }

    /// The committer time of `commit`, Unix seconds: its replacement's when it is replaced,
    /// as `git log -1 --format=%ct` reads it.
    func commitTime(_ commit: git_oid) throws -> Int64 {
        var id = try replacements().content(of: ObjectID(commit)).gitOID
        var object: OpaquePointer?
        try GitLibrary.check(git_commit_lookup(&object, handle, &id), "reading commit \(id.hex)")
        defer { git_commit_free(object) }
        return Int64(git_commit_time(object))
    }

    /// A string value of the repository's configuration (all levels), nil when unset.
    func configString(_ name: String) -> String? {
        withConfig { config in
            var value: UnsafePointer<CChar>?
            guard git_config_get_string(&value, config, name) == 0, let value else { return nil }
            return String(cString: value)
        }
    }

    /// A boolean value of the repository's configuration (all levels), nil when unset.
    func configBool(_ name: String) -> Bool? {
        withConfig { config in
            var value: Int32 = 0
            return git_config_get_bool(&value, config, name) == 0 ? value != 0 : nil
        }
    }

    /// `read` applied to a snapshot of the configuration; nil when it cannot be read.
    func withConfig<Value>(_ read: (OpaquePointer?) -> Value?) -> Value? {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, handle) == 0 else { return nil }
        defer { git_config_free(config) }
        return read(config)
    }

    /// `git rev-parse --abbrev-ref HEAD`: `HEAD` when detached, else the shortest unambiguous
    /// name of the branch (`heads/NAME` when a tag or `refs/NAME` has the same name), strictly
    /// unambiguous unless `core.warnAmbiguousRefs` is false.
    func branchName() throws -> String {
        guard let full = try headReferenceName() else { return "HEAD" }
        return RefAbbreviation.shorten(full, strict: configBool("core.warnAmbiguousRefs") ?? true) {
            referenceExists($0)
        }
    }
}
