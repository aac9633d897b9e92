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

/// A walk over an index file's entries to the extensions behind them (git's index format,
/// versions 2 to 4, SHA-1 ids): just enough to name the mandatory extensions libgit2 lacks
/// (`GitFallback`) and to read the cache tree's root (`GitRepository.hasTrackedChanges`);
/// nothing is kept. Entries themselves are libgit2's to read.
struct IndexWalk {
    let bytes: UnsafeBufferPointer<UInt8>
    private static let hashSize = 20

    /// `body` applied to the walk of the index file at `path`; nil when it cannot be read.
    static func read<Result>(_ path: String, _ body: (IndexWalk) -> Result?) -> Result? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { raw in body(IndexWalk(bytes: raw.bindMemory(to: UInt8.self))) }
    }

    private func word(_ offset: Int) -> Int {
        (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    /// Every extension: its signature and where its data lies; nil when the bytes are not
    /// such an index.
    func extensions() -> [(signature: String, data: Range<Int>)]? {
        let hashSize = Self.hashSize
        guard bytes.count >= 12 + hashSize, bytes[0] == 0x44, bytes[1] == 0x49, bytes[2] == 0x52, bytes[3] == 0x43
        else { return nil }
        let version = word(4)
        guard (2...4).contains(version) else { return nil }
        let entries = word(8)
        let end = bytes.count - hashSize
        var offset = 12
        for _ in 0..<entries {
            // ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the id, 16 bits of flags.
            let flagsAt = offset + 40 + hashSize
            guard flagsAt + 2 <= end else { return nil }
            let extended = version >= 3 && bytes[flagsAt] & 0x40 != 0
            var pathAt = flagsAt + 2 + (extended ? 2 : 0)
            if version == 4 {
                // The path is prefix-compressed: a varint, then the rest of the name, NUL-ended.
                while pathAt < end, bytes[pathAt] & 0x80 != 0 { pathAt += 1 }
                pathAt += 1
            }
            var nul = pathAt
            while nul < end, bytes[nul] != 0 { nul += 1 }
            guard nul < end else { return nil }
            // Versions 2 and 3 pad each entry with 1 to 8 NULs to a multiple of 8 bytes.
            offset = version == 4 ? nul + 1 : offset + (((nul - offset) + 8) & ~7)
        }
        var found: [(signature: String, data: Range<Int>)] = []
        while offset + 8 <= end {
            let signature = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = word(offset + 4)
            guard offset + 8 + size <= end else { return nil }
            found.append((signature, (offset + 8)..<(offset + 8 + size)))
            offset += 8 + size
        }
        return found
    }

    /// The mandatory extensions' signatures (those that do not start with an upper-case
    /// letter, which git's index format reserves for optional ones).
    func mandatoryExtensions() -> [String]? {
        extensions()?.map(\.signature).filter { !($0.utf8.first.map { (0x41...0x5A).contains($0) } ?? false) }
    }

    /// The tree the whole index holds, from the cache tree extension (`TREE`), when its root
    /// entry is valid: git (and libgit2) invalidate an entry and its parents whenever an index
    /// entry below it changes, and `git commit` writes its tree from this one. Nil when there is
    /// no such extension or its root is invalidated (entry count -1).
    func cacheTreeRoot() -> ObjectID? {
        guard let tree = extensions()?.first(where: { $0.signature == "TREE" })?.data else { return nil }
        // The root entry: an empty path and its NUL, "ENTRY_COUNT SUBTREES\n", then the id.
        var offset = tree.lowerBound
        guard offset < tree.upperBound, bytes[offset] == 0 else { return nil }
        offset += 1
        guard offset < tree.upperBound, bytes[offset] != UInt8(ascii: "-") else { return nil }
        while offset < tree.upperBound, bytes[offset] != UInt8(ascii: "\n") { offset += 1 }
        offset += 1
        guard offset + Self.hashSize <= tree.upperBound else { return nil }
        // Offset + hashSize bytes lie within bytes (checked above), so it has a base address.
        // swift-format-ignore: NeverForceUnwrap
        return ObjectID(bytes: UnsafeRawPointer(bytes.baseAddress! + offset))
    }
}
