import CGit2
import Foundation

/// `git describe --dirty`'s question: do tracked files differ from HEAD, in the index or the
/// work tree? libgit2 1.5.1's status answers it, except where it disagrees with git:
///
/// - a skip-worktree entry (what `git sparse-checkout` and partial checkouts leave) is not
///   looked at in the work tree by git, present or not; libgit2 reports it deleted/modified;
/// - a HEAD tree storing a blob as 100664 (early git, some imports) reads as 100644 in git,
///   so the index (which git writes as 100644) matches it; libgit2 reports a mode change.
///
/// Untracked files and submodules' contents are ignored; no rename detection. A submodule
/// whose directory is missing altogether (not merely empty, as a clone leaves it) is a change
/// for git, and libgit2 does not report it when told to skip submodules.
enum WorkTreeStatus {
    private static let indexChanges = GIT_STATUS_INDEX_NEW.rawValue | GIT_STATUS_INDEX_MODIFIED.rawValue
        | GIT_STATUS_INDEX_DELETED.rawValue | GIT_STATUS_INDEX_RENAMED.rawValue | GIT_STATUS_INDEX_TYPECHANGE.rawValue
        | GIT_STATUS_CONFLICTED.rawValue
    private static let workTreeChanges = GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_WT_DELETED.rawValue
        | GIT_STATUS_WT_TYPECHANGE.rawValue | GIT_STATUS_WT_RENAMED.rawValue | GIT_STATUS_WT_UNREADABLE.rawValue

    /// True when `repository` has a change git would call dirty; a bare repository never does.
    static func isDirty(_ repository: GitRepository) throws -> Bool {
        if repository.workDirectory == nil { return false }
        var options = git_status_options()
        try GitLibrary.check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "checking the work tree")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        var list: OpaquePointer?
        try GitLibrary.check(git_status_list_new(&list, repository.handle, &options), "checking the work tree")
        defer { git_status_list_free(list) }
        var index: OpaquePointer?
        try GitLibrary.check(git_repository_index(&index, repository.handle), "reading the index")
        defer { git_index_free(index) }
        for i in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, i)?.pointee else { continue }
            if isRealIndexChange(entry) || isRealWorkTreeChange(entry, index: index) { return true }
        }
        return hasMissingSubmodule(index: index, workDirectory: repository.workDirectory!)
    }

    /// True when a submodule entry (mode 160000, not skip-worktree) has no directory in the
    /// work tree.
    private static func hasMissingSubmodule(index: OpaquePointer?, workDirectory: String) -> Bool {
        for i in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, i)?.pointee, entry.mode == 0o160000,
                  UInt32(entry.flags_extended) & GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue == 0 else { continue }
            var info = stat()
            let path = workDirectory + "/" + String(cString: entry.path)
            if lstat(path, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR { return true }
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
              let indexEntry = git_index_get_bypath(index, path, 0) else { return true }
        let skipWorktree = UInt32(indexEntry.pointee.flags_extended) & GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue
        return skipWorktree == 0
    }
}
