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
        case let .inDirectory(directory):
            path = (directory.hasSuffix("/") ? directory : directory + "/") + Self.fileName
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

/// The file format of versionstamp's caches under the git directory: a header line, then
/// one `KEY VALUE CHECKSUM` line per entry, most recent first, where CHECKSUM is FNV-1a
/// (64-bit, hexadecimal) of `KEY VALUE`.
///
/// Never trusted blindly: a file with another header reads as empty, and a line whose
/// checksum fails (truncated or hand-edited) is skipped. Writes go to a temporary file
/// renamed over the old one (``AtomicFile``, not synced: a cache lost to a power failure
/// costs one walk), so a reader sees the old file or the new one; a directory that cannot be
/// written to is simply not cached (errors are ignored: a cache is an optimisation).
struct ChecksummedLineFile {
    /// The file.
    let path: String
    /// Its first line, naming the cache and its version.
    let header: String

    /// The entries whose checksum holds, most recent first; empty when the file is missing,
    /// unreadable or of another kind.
    func read() -> [(key: String, value: String)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == header else { return [] }
        lines.removeFirst()
        return lines.compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 3, fields[2] == Self.checksum(fields[0], fields[1]) else { return nil }
            return (fields[0], fields[1])
        }
    }

    /// Replaces the file with `entries` (keys and values without spaces or newlines), atomically.
    func write(_ entries: [(key: String, value: String)]) {
        var text = header + "\n"
        for (key, value) in entries {
            text += "\(key) \(value) \(Self.checksum(key, value))\n"
        }
        let directory = PathText.deletingLastComponent(path)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? AtomicFile.replace(path, with: Data(text.utf8), tag: "versionstamp", durability: .atomicOnly)
    }

    /// FNV-1a (64-bit) of `KEY VALUE`, hexadecimal.
    static func checksum(_ key: String, _ value: String) -> String {
        String(ContentHash.fnv1a("\(key) \(value)"), radix: 16)
    }
}
