import FileSystemKit
import Foundation

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
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? AtomicFile.replace(path, with: Data(text.utf8), tag: "versionstamp", durability: .atomicOnly)
    }

    /// FNV-1a (64-bit) of `KEY VALUE`, hexadecimal.
    static func checksum(_ key: String, _ value: String) -> String {
        String(ContentHash.fnv1a("\(key) \(value)"), radix: 16)
    }
}
