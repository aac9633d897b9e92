import FileSystemKit

/// Where a ``RevisionReader`` remembers its history answers between runs.
public enum HistoryCaching: Equatable, Sendable {
    /// In the repository's common git dir (`.git/versionstamp/history`), shared by its linked
    /// worktrees. The default.
    case inGitDirectory
    /// In the file `history` of this directory (`--cache-dir DIR`), created when missing: for a
    /// sandboxed build (a SwiftPM build-tool plugin) that may write only its own work directory.
    case inDirectory(String)
    /// Nowhere: every answer is computed (as with `VERSIONSTAMP_COUNT_CACHE=0` in the environment).
    case off
}

/// The history engine's answers remembered between runs, in one file (see `HistoryCaching`
/// for where): every count (whole history, first-parent, path-limited) and every description.
///
/// An answer is a pure function of what its key names, so a hit needs no walk:
/// - a count: of its options (first-parent, the root-relative paths) and HEAD's commit id,
///   keyed `OPTIONS-COMMIT` so that the counts of other commits with the same options can be
///   found by prefix (a count for a new HEAD is derived from one of them, see `HistoryEngine`);
/// - a description: of HEAD's commit id, the options, the tag pattern and every matching tag
///   reference with the object it points to (a new, moved or deleted tag changes the key).
/// Since keys hold commit ids, one file may serve several clones of one history.
///
/// The file (`ChecksummedLineFile`) is never trusted blindly: each line carries a checksum,
/// malformed lines are ignored, a count is used only when its commit can still be read, writes
/// replace the file atomically, and a directory that cannot be written to is simply not cached.
struct HistoryCache {
    static let header = "versionstamp history cache v2"
    /// The file's name in its directory.
    static let fileName = "history"
    /// How many answers the file remembers (most recent first).
    static let capacity = 64

    /// The cache file.
    let path: String

    /// The cache `caching` asks for in `repository`; nil for `.off`.
    init?(_ caching: HistoryCaching, repository: GitRepository) {
        switch caching {
        case .inGitDirectory: path = repository.commonDirectory + "/versionstamp/" + Self.fileName
        case let .inDirectory(directory): path = (directory.hasSuffix("/") ? directory : directory + "/") + Self.fileName
        case .off: return nil
        }
    }

    /// A cache kept in the file at `path`.
    init(path: String) {
        self.path = path
    }

    /// The key of an answer (or of the options of a count): FNV-1a of its parts, hexadecimal.
    static func key(_ parts: [String]) -> String {
        String(ContentHash.fnv1a(parts.joined(separator: "\u{0}")), radix: 16)
    }

    /// The cached value for `key`, nil when absent.
    func value(for key: String) -> String? {
        file.read().first { $0.key == key }?.value
    }

    /// The entries whose key starts with `prefix`, most recent first.
    func entries(withPrefix prefix: String) -> [(key: String, value: String)] {
        file.read().filter { $0.key.hasPrefix(prefix) }
    }

    /// Remembers `value` (no spaces or newlines) for `key` as the most recent entry; the
    /// oldest entries beyond `capacity` are forgotten.
    func store(_ value: String, for key: String) {
        var kept = file.read().filter { $0.key != key }
        kept.insert((key, value), at: 0)
        file.write(Array(kept.prefix(Self.capacity)))
    }

    private var file: ChecksummedLineFile { ChecksummedLineFile(path: path, header: Self.header) }
}
