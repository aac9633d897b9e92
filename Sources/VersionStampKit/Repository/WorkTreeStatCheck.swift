import CGit2
import Dispatch
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

/// The quick half of `{dirty}`: proves that no tracked file in the work tree differs from the
/// index by comparing each file's `lstat` with the stat data the index recorded for it, as git's
/// own dirty check does before it reads any content (`ie_match_stat`). Every build runs
/// `r{count}{dirty}`, and libgit2's status walks the work tree directory by directory with
/// absolute paths; this stats only the index's entries, from open directory handles, on several
/// threads as git's `core.preloadIndex` does, so that the `lstat` calls themselves are most of
/// its time (figures in docs/Performance.md).
///
/// It only ever answers "unchanged"; anything it cannot prove sends the caller to libgit2's full
/// status (content compared), so where it declines the answer is that status's. It declines for:
/// - an entry whose stat data differs in any field git records (times to the nanosecond, size,
///   inode, owner, file type, executable bit), or whose file is missing;
/// - a racily clean entry: modified no earlier than the index was written, so a change within
///   the same timestamp tick would not show in its stat data (git's "racy git" rule);
/// - a smudged entry (`isSmudged`: recorded with size 0 though its blob is not empty, as git
///   writes racily clean entries so that their content is compared later);
/// - a leading directory that is now a symbolic link (git reports the entry deleted);
/// - a conflicted entry (stage 1–3) or an intent-to-add entry (`git add -N`).
/// Entries git does not look at are skipped: skip-worktree entries (sparse checkout) and
/// submodules (`GitRepository.hasTrackedChanges` checks those separately).
enum WorkTreeStatCheck {

    /// True when every tracked file under `workDirectory` is proven unchanged against `index`,
    /// whose file on disk was last modified at `indexModified`; false when it cannot be proven
    /// (not: that something changed).
    static func isUnchanged(index: OpaquePointer, workDirectory: String, indexModified: FileStamp) -> Bool {
        let count = git_index_entrycount(index)
        var entries: [UnsafePointer<git_index_entry>] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            guard let entry = git_index_get_byindex(index, i) else { return false }
            entries.append(entry)
        }
        let indexTime = (indexModified.mtimeSeconds, indexModified.mtimeNanoseconds)
        // git's preload threshold: threads only pay off from a few hundred files each.
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, entries.count / 500))
        if threads == 1 {
            return check(entries[...], root: workDirectory, indexTime: indexTime)
        }
        let unchanged = UnsafeMutableBufferPointer<Bool>.allocate(capacity: threads)
        defer { unchanged.deallocate() }
        let chunk = (entries.count + threads - 1) / threads
        entries.withUnsafeBufferPointer { all in
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                let slice = Array(all[min(part * chunk, all.count)..<min((part + 1) * chunk, all.count)])
                unchanged[part] = check(slice[...], root: workDirectory, indexTime: indexTime)
            }
        }
        return unchanged.allSatisfy { $0 }
    }

    /// Checks `entries` (in index order, so each directory's entries are contiguous) against
    /// the files under `root`, holding open one handle per directory on the current path and
    /// opening none through a symbolic link.
    private static func check(
        _ entries: ArraySlice<UnsafePointer<git_index_entry>>, root: String,
        indexTime: (Int64, Int64)
    ) -> Bool {
        let rootHandle = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootHandle >= 0 else { return false }
        // The open directories below the root, each with the length of its path ("lib/net": 7).
        var levels: [(end: Int, handle: Int32)] = []
        var directory: [UInt8] = []
        defer {
            for level in levels { close(level.handle) }
            close(rootHandle)
        }
        let slash = UInt8(ascii: "/")
        for pointer in entries {
            let entry = pointer.pointee
            if entry.skipsWorktree || entry.isSubmodule { continue }
            guard !entry.isConflicted, !entry.isIntentToAdd, !entry.isSmudged, let path = entry.path else {
                return false
            }
            let bytes = UnsafeRawPointer(path).assumingMemoryBound(to: UInt8.self)
            let length = strlen(path)
            var nameStart = length
            while nameStart > 0, bytes[nameStart - 1] != slash { nameStart -= 1 }
            let directoryLength = max(0, nameStart - 1)
            guard nameStart < length else { return false }
            if directoryLength != directory.count || memcmp(bytes, directory, directoryLength) != 0 {
                // Keep the levels the new directory shares with the last one; open the rest.
                while let level = levels.last,
                    !(level.end <= directoryLength
                        && (level.end == directoryLength || bytes[level.end] == slash)
                        && memcmp(bytes, directory, level.end) == 0)
                {
                    close(level.handle)
                    levels.removeLast()
                }
                var start = levels.last.map { $0.end + 1 } ?? 0
                while start < directoryLength {
                    var end = start
                    while end < directoryLength, bytes[end] != slash { end += 1 }
                    let component = Array(UnsafeBufferPointer(start: bytes + start, count: end - start)) + [0]
                    let handle = component.withUnsafeBufferPointer { name in
                        // Component holds at least its NUL, so it has a base address.
                        // swift-format-ignore: NeverForceUnwrap
                        openat(
                            levels.last?.handle ?? rootHandle,
                            UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self),
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    }
                    guard handle >= 0 else { return false }
                    levels.append((end, handle))
                    start = end + 1
                }
                directory = Array(UnsafeBufferPointer(start: bytes, count: directoryLength))
            }
            var info = stat()
            guard fstatat(levels.last?.handle ?? rootHandle, path + nameStart, &info, AT_SYMLINK_NOFOLLOW) == 0,
                matches(entry, info, indexTime: indexTime)
            else { return false }
        }
        return true
    }

    /// True when `info` is the stat data `entry` recorded and the entry is not racily clean.
    private static func matches(_ entry: git_index_entry, _ info: stat, indexTime: (Int64, Int64)) -> Bool {
        #if canImport(Darwin)
        let mtime = info.st_mtimespec, ctime = info.st_ctimespec
        #else
        let mtime = info.st_mtim, ctime = info.st_ctim
        #endif
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        let sameKind: Bool
        switch entry.mode {
        case 0o100644: sameKind = type == UInt32(S_IFREG) && UInt32(info.st_mode) & 0o100 == 0
        case 0o100755: sameKind = type == UInt32(S_IFREG) && UInt32(info.st_mode) & 0o100 != 0
        case 0o120000: sameKind = type == UInt32(S_IFLNK)
        default: sameKind = false
        }
        guard sameKind,
            entry.mtime.seconds == Int32(truncatingIfNeeded: mtime.tv_sec),
            entry.mtime.nanoseconds == UInt32(truncatingIfNeeded: mtime.tv_nsec),
            entry.ctime.seconds == Int32(truncatingIfNeeded: ctime.tv_sec),
            entry.ctime.nanoseconds == UInt32(truncatingIfNeeded: ctime.tv_nsec),
            entry.file_size == UInt32(truncatingIfNeeded: info.st_size),
            entry.ino == UInt32(truncatingIfNeeded: info.st_ino),
            entry.uid == UInt32(info.st_uid), entry.gid == UInt32(info.st_gid)
        else { return false }
        // Racily clean: modified at or after the index was written (the index's own time
        // compared in full; the entry's seconds widened as git stores them, unsigned).
        let modified = (Int64(UInt32(bitPattern: entry.mtime.seconds)), Int64(entry.mtime.nanoseconds))
        return modified < indexTime
    }
}

/// The index entry flags the dirty check reads (git's index format, as libgit2 holds it).
extension git_index_entry {
    // A literal of 40 hexadecimal digits.
    // swift-format-ignore: NeverForceUnwrap
    /// The empty blob's id, the one blob an entry may record with size 0 unsmudged.
    private static let emptyBlob = ObjectID(hex: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")!

    /// A conflict's stage (1 to 3) rather than the merged entry (0).
    var isConflicted: Bool { flags & UInt16(GIT_INDEX_ENTRY_STAGEMASK) != 0 }
    /// Outside the sparse checkout: git does not look at its file.
    var skipsWorktree: Bool { UInt32(flags_extended) & GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue != 0 }
    /// Marked `git update-index --assume-unchanged`: git does not look at its file.
    var assumesUnchanged: Bool { UInt32(flags) & GIT_INDEX_ENTRY_VALID.rawValue != 0 }
    /// Added with `git add -N`: a path, no content yet.
    var isIntentToAdd: Bool { UInt32(flags_extended) & GIT_INDEX_ENTRY_INTENT_TO_ADD.rawValue != 0 }
    /// A submodule (gitlink, mode 160000).
    var isSubmodule: Bool { mode == 0o160000 }
    /// Recorded with size 0 though its blob is not empty: git "smudged" it, writing it racily
    /// clean, so that its content is compared later.
    var isSmudged: Bool { file_size == 0 && ObjectID(id) != Self.emptyBlob }
}
