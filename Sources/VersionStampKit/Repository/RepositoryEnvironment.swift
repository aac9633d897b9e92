import CGit2
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

/// Where git's environment variables put a repository's parts, and how the opened repository
/// is made to follow them, as git 2.39 does (`git help git`, "Environment Variables"; setup.c):
///
/// - `GIT_DIR`: the git dir itself; no discovery. The work tree is then `GIT_WORK_TREE`, else
///   `core.worktree`, else none when `core.bare` is true, else the directory the command runs
///   in (`--repo`, like `git -C`): a hook runs at the work tree's top, and
///   `GIT_DIR=/path/src/.git versionstamp print` answers for `src` wherever it is run.
/// - `GIT_WORK_TREE`: the work tree (with or without `GIT_DIR`): a dotfiles-style bare
///   repository used with both.
/// - `GIT_INDEX_FILE`: the index `{dirty}` compares (a missing file is an empty index).
/// - `GIT_OBJECT_DIRECTORY`: the object directory in place of `COMMON_DIR/objects`.
/// - `GIT_ALTERNATE_OBJECT_DIRECTORIES`: more object directories, `:`-separated, searched
///   with the `objects/info/alternates` of each.
/// - `GIT_COMMON_DIR`: honoured when it names the common dir the git dir already has (a
///   linked worktree's `commondir`); any other is refused, since libgit2 (1.5 to 1.9) has no
///   way to open a git dir over another common dir.
/// - `GIT_CEILING_DIRECTORIES`: where discovery stops.
/// Relative paths are taken from the directory the command runs in.
///
/// libgit2's own `GIT_REPOSITORY_OPEN_FROM_ENV` (a flag of `git_repository_open_ext` in 1.5 as
/// in 1.9) is not used, because it does not behave alike across those versions nor like git:
/// it reads the process environment rather than the one given (a library caller or a test
/// cannot pass its own); 1.5 fails with "GIT_WORK_TREE unimplemented" / "GIT_COMMON_DIR
/// unimplemented" whenever either is set, while later sources read both; and under `GIT_DIR`
/// alone every version takes the git dir's parent as the work tree, where git takes the
/// current directory. The libgit2 calls it makes are made here instead, the same in every
/// version: `git_repository_open_ext` without search, `git_repository_set_workdir`,
/// `git_repository_set_index` and `git_repository_set_odb` with disk alternates.
struct RepositoryEnvironment {
    /// `GIT_DIR`, absolute; nil: discover the repository.
    var gitDirectory: String?
    /// `GIT_WORK_TREE`, absolute.
    var workTree: String?
    /// `GIT_INDEX_FILE`, absolute.
    var indexFile: String?
    /// `GIT_OBJECT_DIRECTORY`, absolute.
    var objectDirectory: String?
    /// `GIT_ALTERNATE_OBJECT_DIRECTORIES`, absolute, in order.
    var alternateObjectDirectories: [String]
    /// `GIT_COMMON_DIR`, absolute.
    var commonDirectory: String?
    /// `GIT_CEILING_DIRECTORIES` as given.
    var ceilingDirectories: String?

    /// The variables of `environment`, relative paths taken from `base`; empty values are unset.
    init(_ environment: [String: String], base: String) {
        func path(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return Self.absolute(value, base: base)
        }
        gitDirectory = path("GIT_DIR")
        workTree = path("GIT_WORK_TREE")
        indexFile = path("GIT_INDEX_FILE")
        objectDirectory = path("GIT_OBJECT_DIRECTORY")
        commonDirectory = path("GIT_COMMON_DIR")
        alternateObjectDirectories = (environment["GIT_ALTERNATE_OBJECT_DIRECTORIES"] ?? "")
            .split(separator: ":").map { Self.absolute(String($0), base: base) }
        ceilingDirectories = environment["GIT_CEILING_DIRECTORIES"]
    }

    /// True when the object database is not simply `COMMON_DIR/objects` with its alternates.
    var movesObjects: Bool { objectDirectory != nil || !alternateObjectDirectories.isEmpty }

    /// Makes the opened `repository` follow the variables: work tree, index and object
    /// database. `start` is where the command runs (the implicit work tree under `GIT_DIR`).
    /// Returns the mandatory extensions of a `GIT_INDEX_FILE` libgit2 cannot read (a split or
    /// sparse index; `{dirty}` then asks git, `GitFallback`), else an empty list.
    func apply(to repository: OpaquePointer, start: String, commonDirectory libraryCommon: String) throws -> [String] {
        if let commonDirectory, Self.canonical(commonDirectory) != Self.canonical(libraryCommon) {
            throw VersionStampError(
                .gitFailure, path: commonDirectory,
                message: "GIT_COMMON_DIR names another common dir than the git dir's own (\(libraryCommon)), "
                    + "which libgit2 cannot open; unset GIT_COMMON_DIR, or set GIT_DIR to a git dir whose 'commondir' file names it"
            )
        }
        if let workTree = workTree ?? implicitWorkTree(repository, start: start) {
            try GitLibrary.check(git_repository_set_workdir(repository, workTree, 0), "using the work tree \(workTree)")
        }
        var unreadableIndexExtensions: [String] = []
        if let indexFile {
            var index: OpaquePointer?
            let opened = git_index_open(&index, indexFile)
            defer { git_index_free(index) }
            if opened < 0 {
                unreadableIndexExtensions = GitFallback.mandatoryIndexExtensions(at: indexFile)
                if unreadableIndexExtensions.isEmpty {
                    try GitLibrary.check(opened, "reading GIT_INDEX_FILE \(indexFile)")
                }
            } else {
                try GitLibrary.check(git_repository_set_index(repository, index), "using GIT_INDEX_FILE \(indexFile)")
            }
        }
        if movesObjects {
            var odb: OpaquePointer?
            let primary = objectDirectory ?? libraryCommon + "/objects"
            try GitLibrary.check(git_odb_open(&odb, primary), "opening the object directory \(primary)")
            defer { git_odb_free(odb) }
            for alternate in alternateObjectDirectories {
                try GitLibrary.check(
                    git_odb_add_disk_alternate(odb, alternate), "adding the alternate object directory \(alternate)")
            }
            try GitLibrary.check(git_repository_set_odb(repository, odb), "using the object directory \(primary)")
        }
        return unreadableIndexExtensions
    }

    /// Under `GIT_DIR` without `GIT_WORK_TREE`: git takes `core.worktree` (libgit2 already
    /// did), none for `core.bare`, else the current directory, where libgit2 takes the git
    /// dir's parent. Nil: keep what libgit2 chose.
    private func implicitWorkTree(_ repository: OpaquePointer, start: String) -> String? {
        guard gitDirectory != nil, git_repository_is_bare(repository) == 0 else { return nil }
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, repository) == 0 else { return start }
        defer { git_config_free(config) }
        var entry: UnsafeMutablePointer<git_config_entry>?
        if git_config_get_entry(&entry, config, "core.worktree") == 0, entry != nil {
            git_config_entry_free(entry)
            return nil
        }
        return start
    }

    /// The object directories git reads, in its order: `primary`, then each of
    /// `alternates` (from `GIT_ALTERNATE_OBJECT_DIRECTORIES`) and every directory listed in
    /// an `info/alternates` file met on the way (relative to the directory listing it, at
    /// most five levels deep, as git follows them), each once.
    static func objectDirectories(primary: String, alternates: [String] = []) -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        func visit(_ directory: String, depth: Int) {
            guard depth <= 5, seen.insert(canonical(directory)).inserted else { return }
            result.append(directory)
            for listed in listedAlternates(of: directory) { visit(listed, depth: depth + 1) }
        }
        guard seen.insert(canonical(primary)).inserted else { return [] }
        result.append(primary)
        for alternate in alternates { visit(alternate, depth: 1) }
        for listed in listedAlternates(of: primary) { visit(listed, depth: 1) }
        return result
    }

    /// The directories `objects/info/alternates` lists (blank lines and `#` comments skipped).
    private static func listedAlternates(of objectDirectory: String) -> [String] {
        guard let text = try? String(contentsOfFile: objectDirectory + "/info/alternates", encoding: .utf8) else {
            return []
        }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let path = line.trimmingSpacesAndTabs()
            if path.isEmpty || path.hasPrefix("#") { return nil }
            return absolute(path, base: objectDirectory)
        }
    }

    /// `path`, taken from `base` when relative.
    static func absolute(_ path: String, base: String) -> String {
        path.hasPrefix("/") ? path : (base.hasSuffix("/") ? base : base + "/") + path
    }

    /// `path` with symbolic links, `.` and `..` resolved when it exists, else as given.
    static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
