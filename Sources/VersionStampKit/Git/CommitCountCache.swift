import CGit2
import Foundation

/// A small cache of commit counts (`git rev-list --count C`) under the repository's common
/// git dir (`.git/versionstamp/commit-counts`), so a warm run does not walk the whole history.
///
/// For HEAD and a cached commit X (any commit, not necessarily an ancestor):
/// `count(HEAD) = count(X) + |HEAD ^X| - |X ^HEAD|` (commits reachable from HEAD only, minus
/// commits reachable from X only). When X is HEAD's recent ancestor both walks are short.
///
/// The file is safe to delete and never trusted blindly: a line is used only when its
/// checksum matches and its commit exists; anything else is ignored (a full walk then
/// rewrites the file). Writes go to a temporary file renamed over the old one, so readers
/// never see half a file; a repository that cannot be written to just is not cached.
struct CommitCountCache {
    /// One cached count.
    struct Entry: Equatable {
        var commit: String
        var count: Int
    }

    /// The first line of the file.
    static let header = "versionstamp commit-count cache v1"
    /// How many commits the file remembers (most recent first).
    static let capacity = 8

    /// The cache file.
    let path: String

    /// The cache of `repository` (shared by its linked worktrees).
    init(repository: GitRepository) {
        path = repository.commonDirectory + "/versionstamp/commit-counts"
    }

    init(path: String) {
        self.path = path
    }

    /// The valid entries, most recent first; empty when the file is missing or unreadable.
    func read() -> [Entry] {
        file.read().compactMap { Self.entry(key: $0.key, value: $0.value) }
    }

    /// An entry from a line whose checksum held: a full lowercase commit id and a count ≥ 1
    /// written canonically; nil otherwise.
    static func entry(key commit: String, value: String) -> Entry? {
        guard commit.utf8.count == 40, commit.allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
              let count = Int(value), count >= 1, String(count) == value else { return nil }
        return Entry(commit: commit, count: count)
    }

    private var file: ChecksummedLineFile { ChecksummedLineFile(path: path, header: Self.header) }

    /// Writes `entries` (most recent first, at most `capacity`) atomically; errors are ignored.
    func write(_ entries: [Entry]) {
        file.write(entries.prefix(Self.capacity).map { ($0.commit, String($0.count)) })
    }

    /// `git rev-list --count HEAD` for `head`, using and refreshing the cache.
    func count(_ head: git_oid, in repository: GitRepository) throws -> Int {
        let headHex = head.hex
        var entries = read()
        if let hit = entries.first(where: { $0.commit == headHex }) {
            if entries.first?.commit != headHex {
                write([hit] + entries.filter { $0.commit != headHex })
            }
            return hit.count
        }
        var result: Int?
        // The most recent cached commit that still exists (a rebase or gc may have removed it).
        if let base = entries.first(where: { entry in
            git_oid(hex: entry.commit).map { repository.isCommit($0) } ?? false
        }), let baseID = git_oid(hex: base.commit) {
            // A walk that fails (e.g. gc pruned the old commit's history) falls back to a full walk.
            if let added = try? repository.countCommits(from: head, hiding: [baseID]),
               let removed = try? repository.countCommits(from: baseID, hiding: [head]),
               base.count + added - removed >= 1 {
                result = base.count + added - removed
            }
        }
        let count = try result ?? repository.countCommits(from: head)
        entries.removeAll { $0.commit == headHex }
        write([Entry(commit: headHex, count: count)] + entries)
        return count
    }
}

extension GitRepository {
    /// True when `oid` names a commit in the object database.
    func isCommit(_ oid: git_oid) -> Bool {
        var odb: OpaquePointer?
        guard git_repository_odb(&odb, handle) == 0 else { return false }
        defer { git_odb_free(odb) }
        var id = oid
        var size = 0
        var type = GIT_OBJECT_INVALID
        return git_odb_read_header(&size, &type, odb, &id) == 0 && type == GIT_OBJECT_COMMIT
    }
}
