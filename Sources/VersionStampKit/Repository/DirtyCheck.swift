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

/// `git describe --dirty`'s question: do tracked files differ from HEAD, in the index or the
/// work tree? libgit2's status answers it, except where it disagrees with git (1.5 does here;
/// the corrections change nothing where a later libgit2 agrees):
///
/// - a skip-worktree entry (what `git sparse-checkout` and partial checkouts leave) is not
///   looked at in the work tree by git, present or not; libgit2 reports it deleted/modified;
/// - a HEAD tree storing a blob as 100664 (early git, some imports) reads as 100644 in git,
///   so the index (which git writes as 100644) matches it; libgit2 reports a mode change.
///
/// Untracked files are ignored; no rename detection. Submodules are git's to judge: a
/// checked-out submodule is a change when its HEAD moved off the recorded commit or its
/// tracked files changed, unless `submodule.<name>.ignore` (in `.gitmodules` or the config;
/// `diff.ignoreSubmodules` does not count) says otherwise; its untracked files count for
/// `git status` but not for `git describe --dirty`. Rather than a second copy of
/// those rules, `{dirty}` asks git (`GitFallback`) whenever a submodule is checked out: git
/// put it there, so git is installed. Unpopulated submodules are left to libgit2, which
/// compares their recorded commits with HEAD's like any entry; a submodule whose directory is
/// missing altogether (not merely empty, as a clone leaves it), a change for git, is looked
/// for separately (the cache tree's shortcut runs no status).
extension GitRepository {
    private static let indexChanges =
        GIT_STATUS_INDEX_NEW.rawValue | GIT_STATUS_INDEX_MODIFIED.rawValue
        | GIT_STATUS_INDEX_DELETED.rawValue | GIT_STATUS_INDEX_RENAMED.rawValue | GIT_STATUS_INDEX_TYPECHANGE.rawValue
        | GIT_STATUS_CONFLICTED.rawValue
    private static let workTreeChanges =
        GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_WT_DELETED.rawValue
        | GIT_STATUS_WT_TYPECHANGE.rawValue | GIT_STATUS_WT_RENAMED.rawValue | GIT_STATUS_WT_UNREADABLE.rawValue

    /// True when tracked files differ from HEAD in the index or the work tree, as
    /// `git describe --dirty` sees it; a bare repository is never dirty. `headTree`, when given,
    /// is HEAD's tree as the history reader read it, for a HEAD commit libgit2 cannot parse.
    /// Where libgit2 cannot give git's answer (an index it cannot read, a checked-out
    /// submodule, a file git converts) git answers (`GitFallback`), run with `environment`.
    func hasTrackedChanges(headTree: ObjectID? = nil, environment: [String: String] = [:]) throws -> Bool {
        guard let workDirectory else { return false }
        // git is given the index by its absolute path, as it was resolved here (libgit2 holds
        // another one when it could not open the one GIT_INDEX_FILE names).
        func askGit(_ reason: GitFallback.Reason) throws -> Bool {
            var gitEnvironment = environment
            gitEnvironment["GIT_INDEX_FILE"] = indexPath
            return try GitFallback.hasTrackedChanges(
                gitDirectory: gitDirectory, workDirectory: workDirectory,
                becauseOf: reason, environment: gitEnvironment)
        }
        if !unreadableIndexExtensions.isEmpty { return try askGit(.indexExtensions(unreadableIndexExtensions)) }
        if let submodule = checkedOutSubmodule() { return try askGit(.submodule(submodule)) }
        var options = git_status_options()
        try GitLibrary.check(
            git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "checking the work tree")
        // HEAD's tree as git reads it: the history reader's where libgit2 cannot parse HEAD
        // (given), the replacement's where a replace ref replaces HEAD (`git replace HEAD
        // OTHER`), else nil for libgit2's own peel of HEAD.
        var baseline: OpaquePointer?
        if var tree = headTree?.gitOID {
            try GitLibrary.check(git_tree_lookup(&baseline, handle, &tree), "reading HEAD's tree \(tree.hex)")
        } else {
            baseline = try replacedHeadTree()
        }
        defer { git_tree_free(baseline) }
        options.baseline = baseline
        // When the work tree provably matches the index by stat, only HEAD against the index
        // is left to compare: nothing at all when the index's cache tree is HEAD's tree, else
        // libgit2 compares the two.
        let proof = workTreeMatchesIndexByStat()
        if let cached = proof?.cachedTree,
            cached == (baseline.map { ObjectID(git_tree_id($0).pointee) } ?? headTreeID())
        {
            var index: OpaquePointer?
            try GitLibrary.check(git_repository_index(&index, handle), "reading the index")
            defer { git_index_free(index) }
            return Self.hasChangeStatusMisses(index: index, workDirectory: workDirectory)
        }
        options.show = proof != nil ? GIT_STATUS_SHOW_INDEX_ONLY : GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        // No flags: untracked files are not listed, and submodules are not skipped, so that a
        // submodule recorded at another commit, or in HEAD and not in the index (`git rm
        // --cached`), counts; every submodule left here is unpopulated, so libgit2 has no
        // submodule repository to look into.
        options.flags = 0
        var list: OpaquePointer?
        let listed = git_status_list_new(&list, handle, &options)
        if listed < 0 {
            // An index extension libgit2 lacks (split or sparse index) is looked for only
            // after a failure, so a readable index is read once, by libgit2.
            let unreadable = GitFallback.mandatoryIndexExtensions(at: indexPath)
            if !unreadable.isEmpty { return try askGit(.indexExtensions(unreadable)) }
            try GitLibrary.check(listed, "checking the work tree")
        }
        defer { git_status_list_free(list) }
        var index: OpaquePointer?
        try GitLibrary.check(git_repository_index(&index, handle), "reading the index")
        defer { git_index_free(index) }
        // A file libgit2 found modified that git would convert before comparing (see
        // `conversionLibgit2Lacks`) is git's to judge, unless another change decides.
        var converted: (path: String, conversion: String)?
        var drivers: Set<String>?
        for i in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, i)?.pointee else { continue }
            if Self.isRealIndexChange(entry) { return true }
            guard Self.isRealWorkTreeChange(entry, index: index) else { continue }
            guard entry.status.rawValue & Self.workTreeChanges == GIT_STATUS_WT_MODIFIED.rawValue,
                let path = entry.index_to_workdir?.pointee.new_file.path
            else { return true }
            if drivers == nil { drivers = filterDrivers() }
            guard let conversion = conversionLibgit2Lacks(path, drivers: drivers ?? []) else { return true }
            converted = converted ?? (String(cString: path), conversion)
        }
        // With core.ignoreCase, libgit2 pairs a tracked file with a work-tree file whose name
        // differs only in case (`a.txt` renamed `A.txt`) and reports nothing, where git finds
        // the file deleted on a case-sensitive file system: so every name is looked up too.
        if Self.hasChangeStatusMisses(
            index: index, workDirectory: workDirectory,
            lookingUpNames: configBool("core.ignorecase") == true)
        {
            return true
        }
        if let converted { return try askGit(.conversion(path: converted.path, converted.conversion)) }
        return false
    }

    /// What `workTreeMatchesIndexByStat` proved: every tracked file matches the index.
    struct IndexProof {
        /// The tree the whole index holds, when its cache tree says so (`IndexWalk.cacheTreeRoot`).
        let cachedTree: ObjectID?
    }

    /// A proof when `WorkTreeStatCheck` shows every tracked file unchanged against the index,
    /// the index file staying the same meanwhile; nil when it cannot (the index unreadable too:
    /// the full status then reports why, or asks git) and for a bare repository.
    func workTreeMatchesIndexByStat() -> IndexProof? {
        var index: OpaquePointer?
        guard let workDirectory, let before = FileStamp.of(indexPath), git_repository_index(&index, handle) == 0,
            let index
        else { return nil }
        defer { git_index_free(index) }
        guard git_index_read(index, 0) == 0,
            WorkTreeStatCheck.isUnchanged(index: index, workDirectory: workDirectory, indexModified: before)
        else { return nil }
        let cachedTree = IndexWalk.read(indexPath) { $0.cacheTreeRoot() }
        return FileStamp.of(indexPath) == before ? IndexProof(cachedTree: cachedTree) : nil
    }

    /// The tree of HEAD's commit as libgit2 reads it; nil when it cannot.
    private func headTreeID() -> ObjectID? {
        guard !isHeadUnborn, var id = try? headCommitID() else { return nil }
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, handle, &id) == 0 else { return nil }
        defer { git_commit_free(commit) }
        return git_commit_tree_id(commit).map { ObjectID($0.pointee) }
    }

    /// The tree of HEAD's replacement when a replace ref replaces HEAD's commit, else nil
    /// (libgit2 then compares with HEAD's own tree).
    private func replacedHeadTree() throws -> OpaquePointer? {
        guard !isHeadUnborn else { return nil }
        let head = ObjectID(try headCommitID())
        var replacement = try replacements().content(of: head).gitOID
        guard ObjectID(replacement) != head else { return nil }
        var commit: OpaquePointer?
        try GitLibrary.check(
            git_commit_lookup(&commit, handle, &replacement), "reading HEAD's replacement \(replacement.hex)")
        defer { git_commit_free(commit) }
        var tree: OpaquePointer?
        try GitLibrary.check(git_commit_tree(&tree, commit), "reading the tree of HEAD's replacement")
        return tree
    }

    /// The path of the first checked-out submodule (its directory holds a `.git`), whose state
    /// git must judge (see above); nil when there is none, the usual case, found in one pass
    /// over the index; nil too for an index libgit2 cannot read (the status then fails and
    /// asks git).
    private func checkedOutSubmodule() -> String? {
        var index: OpaquePointer?
        guard let workDirectory, git_repository_index(&index, handle) == 0 else { return nil }
        defer { git_index_free(index) }
        for i in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, i)?.pointee, entry.isSubmodule,
                !entry.isConflicted, !entry.skipsWorktree
            else { continue }
            let path = String(cString: entry.path)
            var info = stat()
            if lstat(workDirectory + "/" + path + "/.git", &info) == 0 { return path }
        }
        return nil
    }

    /// The conversion git applies to the work-tree file `path` before comparing it with the
    /// index, where libgit2 1.5 applies none: a `filter` attribute naming one of `drivers`
    /// (git-lfs's `filter=lfs`, which `git lfs install` configures), or a
    /// `working-tree-encoding` attribute. libgit2 hashes such a file as it is, so one git sees
    /// unchanged (after a checkout whose last files share the index's timestamp, or a touch)
    /// reads as modified. nil when there is none; "attributes libgit2 cannot read" when the
    /// lookup fails (git then answers).
    private func conversionLibgit2Lacks(_ path: UnsafePointer<CChar>, drivers: Set<String>) -> String? {
        let names: [UnsafeMutablePointer<CChar>?] = [strdup("filter"), strdup("working-tree-encoding")]
        defer { names.forEach { free($0) } }
        var attributes = names.map { $0.map { UnsafePointer($0) } }
        var values = [UnsafePointer<CChar>?](repeating: nil, count: names.count)
        guard git_attr_get_many(&values, handle, 0, path, names.count, &attributes) == 0 else {
            return "attributes libgit2 cannot read"
        }
        if git_attr_value(values[0]) == GIT_ATTR_VALUE_STRING, let driver = values[0].map({ String(cString: $0) }),
            drivers.contains(driver)
        {
            return "the '\(driver)' filter"
        }
        if git_attr_value(values[1]) == GIT_ATTR_VALUE_STRING, let encoding = values[1] {
            return "working-tree-encoding \(String(cString: encoding))"
        }
        return nil
    }

    /// The filter drivers the configuration gives a `clean` or `process` command
    /// (`filter.<driver>.clean`): a `filter` attribute naming another driver converts nothing.
    private func filterDrivers() -> Set<String> {
        withConfig { config -> Set<String>? in
            var iterator: OpaquePointer?
            guard git_config_iterator_glob_new(&iterator, config, "^filter\\..+\\.(clean|process)$") == 0 else {
                return nil
            }
            defer { git_config_iterator_free(iterator) }
            var drivers = Set<String>()
            var entry: UnsafeMutablePointer<git_config_entry>?
            while git_config_next(&entry, iterator) == 0, let name = entry?.pointee.name {
                let key = String(cString: name).dropFirst("filter.".count) // DRIVER.clean, DRIVER as written
                drivers.insert(String(key[..<(key.lastIndex(of: ".") ?? key.endIndex)]))
            }
            return drivers
        } ?? []
    }

    /// True for a change libgit2's status does not report, or that the cache tree's shortcut
    /// (which runs no status) would miss: a submodule entry (mode 160000) whose directory is
    /// missing from the work tree, or an entry git smudged (recorded size 0,
    /// written racily clean so that its content is compared later) whose file is empty though
    /// its blob is not; and, `lookingUpNames` (core.ignoreCase, where libgit2 pairs names that
    /// differ only in case), a tracked file missing under the name the index records (`lstat`
    /// fails with `ENOENT` or `ENOTDIR`, which git reports as deleted; where the file system
    /// folds case, git's lookup and this one find the file alike). Skip-worktree and conflicted
    /// entries are not looked at, nor, for their names, assume-unchanged ones: git does not.
    private static func hasChangeStatusMisses(
        index: OpaquePointer?, workDirectory: String, lookingUpNames: Bool = false
    ) -> Bool {
        for i in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, i)?.pointee, !entry.isConflicted, !entry.skipsWorktree else {
                continue
            }
            let nameLookedUp = lookingUpNames && !entry.isSubmodule && !entry.assumesUnchanged
            guard entry.isSubmodule || entry.isSmudged || nameLookedUp else { continue }
            var info = stat()
            let path = workDirectory + "/" + String(cString: entry.path)
            let found = lstat(path, &info) == 0
            if !found, nameLookedUp, errno == ENOENT || errno == ENOTDIR { return true }
            if entry.isSubmodule
                ? (!found || info.st_mode & S_IFMT != S_IFDIR)
                : (entry.isSmudged && found && info.st_mode & S_IFMT == S_IFREG && info.st_size == 0)
            {
                return true
            }
        }
        return false
    }

    /// An index change other than a blob mode that git canonicalises to the index's.
    private static func isRealIndexChange(_ entry: git_status_entry) -> Bool {
        let flags = entry.status.rawValue & indexChanges
        guard flags != 0 else { return false }
        guard flags == GIT_STATUS_INDEX_MODIFIED.rawValue, let delta = entry.head_to_index?.pointee else { return true }
        var old = delta.old_file.id, new = delta.new_file.id
        return git_oid_equal(&old, &new) == 0
            || TreeEntry.canonical(UInt32(delta.old_file.mode)) != TreeEntry.canonical(UInt32(delta.new_file.mode))
    }

    /// A work-tree change of an entry git compares (not skip-worktree).
    private static func isRealWorkTreeChange(_ entry: git_status_entry, index: OpaquePointer?) -> Bool {
        guard entry.status.rawValue & workTreeChanges != 0 else { return false }
        guard let delta = entry.index_to_workdir?.pointee, let path = delta.old_file.path,
            let indexEntry = git_index_get_bypath(index, path, 0)
        else { return true }
        return !indexEntry.pointee.skipsWorktree
    }
}
