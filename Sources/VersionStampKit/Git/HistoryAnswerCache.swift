import FileSystemKit
import Foundation

/// The count cache extended to every history answer of a `RevisionQuery`: path-limited and
/// first-parent counts, and descriptions (tag pattern included), in
/// `.git/versionstamp/history-answers` beside the commit-count cache.
///
/// An answer is a pure function of what its key names, so a hit needs no walk:
/// - a count: of HEAD's commit id, first-parent and the normalised paths;
/// - a description: of those, the tag pattern and every matching tag reference with the
///   object it points to (a new, moved or deleted tag changes the key).
///
/// Like the commit-count cache the file is never trusted blindly: each line carries a
/// checksum, malformed lines are ignored, writes replace the file atomically, and a
/// repository that cannot be written to is simply not cached.
struct HistoryAnswerCache {
    static let header = "versionstamp history-answers v1"
    /// How many answers the file remembers (most recent first).
    static let capacity = 64

    let path: String

    /// The cache of `repository` (shared by its linked worktrees).
    init(repository: GitRepository) {
        path = repository.commonDirectory + "/versionstamp/history-answers"
    }

    /// A cache kept in the file at `path`.
    init(path: String) {
        self.path = path
    }

    /// The key of an answer: FNV-1a of its parts, hexadecimal.
    static func key(_ parts: [String]) -> String {
        String(ContentHash.fnv1a(parts.joined(separator: "\u{0}")), radix: 16)
    }

    /// The cached value for `key`, nil when absent.
    func value(for key: String) -> String? {
        lines().first { $0.key == key }?.value
    }

    /// The entries whose key starts with `prefix`, most recent first.
    func entries(withPrefix prefix: String) -> [(key: String, value: String)] {
        lines().filter { $0.key.hasPrefix(prefix) }
    }

    /// Remembers `value` (no spaces or newlines) for `key`, most recent first.
    func store(_ value: String, for key: String) {
        var kept = lines().filter { $0.key != key }
        kept.insert((key, value), at: 0)
        file.write(Array(kept.prefix(Self.capacity)))
    }

    private var file: ChecksummedLineFile { ChecksummedLineFile(path: path, header: Self.header) }

    private func lines() -> [(key: String, value: String)] { file.read() }
}
