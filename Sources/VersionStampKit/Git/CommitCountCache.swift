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
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == Self.header else { return [] }
        lines.removeFirst()
        return lines.compactMap(Self.parse)
    }

    /// Parses `COMMIT COUNT CHECKSUM`; nil when malformed or the checksum does not match.
    static func parse(_ line: String) -> Entry? {
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count == 3, fields[0].utf8.count == 40,
              fields[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
              let count = Int(fields[1]), count >= 1, String(count) == fields[1],
              fields[2] == checksum(fields[0], count) else { return nil }
        return Entry(commit: fields[0], count: count)
    }

    /// FNV-1a (64-bit) of `COMMIT COUNT`, hexadecimal: catches truncated or hand-edited lines.
    static func checksum(_ commit: String, _ count: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(commit) \(count)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// Writes `entries` (most recent first, at most `capacity`) atomically; errors are ignored.
    func write(_ entries: [Entry]) {
        let directory = (path as NSString).deletingLastPathComponent
        var text = Self.header + "\n"
        for entry in entries.prefix(Self.capacity) {
            text += "\(entry.commit) \(entry.count) \(Self.checksum(entry.commit, entry.count))\n"
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = directory + "/.commit-counts-\(getpid())-\(UUID().uuidString)"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
            if rename(temporary, path) != 0 { unlink(temporary) }
        } catch {
            return
        }
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
