import CGit2
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
import FileSystemKit

/// git's abbreviated object ids (`git rev-parse --short`), which libgit2 (1.5 to 1.9) does not
/// reproduce (it always starts at 7 digits).
///
/// git (2.39, `find_unique_abbrev_r`) starts from `core.abbrev`; when that is unset or
/// `auto`, the starting length scales with the *approximate* object count, which counts only
/// the objects in pack indexes (and multi-pack-indexes), not loose objects:
/// `bits = msb(count) + 1`, `length = max(7, ceil(bits / 2))`. The id is then extended until
/// no other object in the repository shares the prefix.
enum ShortIdAbbreviation {
    /// git's `FALLBACK_DEFAULT_ABBREV`.
    static let fallbackLength = 7
    /// git's `MINIMUM_ABBREV`.
    static let minimumLength = 4
    /// Hex digits of a SHA-1 id.
    static let fullLength = 40

    /// The starting length for `approximateObjectCount` objects when `core.abbrev` is `auto`.
    static func automaticLength(approximateObjectCount count: Int) -> Int {
        var msb = 0
        var x = UInt(max(count, 0))
        while x > 1 { x >>= 1; msb += 1 }
        let bits = msb + 1
        return max(fallbackLength, (bits + 1) / 2)
    }

    /// The starting length `core.abbrev` asks for: nil for `auto` or unset (scale with the
    /// object count); a false boolean means the full id; otherwise the number (4...40).
    static func configuredLength(_ value: String?) throws -> Int? {
        guard let value else { return nil }
        let lowered = value.lowercased()
        if lowered == "auto" { return nil }
        if ["false", "no", "off", ""].contains(lowered) { return fullLength }
        guard let number = Int(value), (minimumLength...fullLength).contains(number) else {
            throw VersionStampError(.gitFailure, message: "core.abbrev: abbrev length out of range: \(value)")
        }
        return number
    }

    /// The number of objects git's `repo_approximate_object_count` reports: the objects listed
    /// in the multi-pack-index and pack indexes (whose `.pack` exists) of the repository's
    /// object directories, alternates included (`RepositoryEnvironment.objectDirectories`).
    static func approximateObjectCount(objectDirectories: [String]) -> Int {
        objectDirectories.reduce(0) { $0 + packedObjectCount(packDirectory: $1 + "/pack") }
    }

    /// Objects in one pack directory: the multi-pack-index's count plus the packs it does not cover.
    static func packedObjectCount(packDirectory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packDirectory)) ?? []
        var covered = Set<String>()
        var total = 0
        if let midx = readMultiPackIndex(packDirectory + "/multi-pack-index") {
            total += midx.objectCount
            covered = midx.packIndexNames
        }
        for name in names where name.hasSuffix(".idx") && !covered.contains(name) {
            let base = String(name.dropLast(4))
            guard FileManager.default.fileExists(atPath: packDirectory + "/" + base + ".pack") else { continue }
            total += packIndexObjectCount(packDirectory + "/" + name) ?? 0
        }
        return total
    }

    /// The object count of a pack index (v1 or v2): the last fan-out entry.
    static func packIndexObjectCount(_ path: String) -> Int? {
        guard let file = ReadableFile(path: path), let bytes = try? file.read(atMost: 8 + 256 * 4),
            bytes.count >= 256 * 4
        else { return nil }
        let fanout: Int
        if bytes.count >= 8, bytes[0] == 0xFF, bytes[1] == 0x74, bytes[2] == 0x4F, bytes[3] == 0x63 {
            guard bytes.count == 8 + 256 * 4 else { return nil }
            fanout = 8
        } else {
            fanout = 0
        }
        return Int(bigEndian32(bytes, fanout + 255 * 4))
    }

    /// The object count and pack index names of a multi-pack-index file, nil when absent or unreadable.
    static func readMultiPackIndex(_ path: String) -> (objectCount: Int, packIndexNames: Set<String>)? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
            data.count >= 12
        else { return nil }
        let bytes = [UInt8](data)
        guard bytes[0..<4] == [0x4D, 0x49, 0x44, 0x58] /* MIDX */ else { return nil }
        let chunkCount = Int(bytes[6])
        var chunks: [String: Int] = [:]
        var chunkEnds: [Int] = []
        for i in 0...chunkCount {
            let entry = 12 + i * 12
            guard entry + 12 <= bytes.count else { return nil }
            let id = String(decoding: bytes[entry..<entry + 4], as: UTF8.self)
            let offset = Int(bigEndian32(bytes, entry + 4)) << 32 | Int(bigEndian32(bytes, entry + 8))
            chunks[id] = offset
            chunkEnds.append(offset)
        }
        guard let fanout = chunks["OIDF"], fanout + 256 * 4 <= bytes.count else { return nil }
        let count = Int(bigEndian32(bytes, fanout + 255 * 4))
        var names = Set<String>()
        if let start = chunks["PNAM"] {
            let end = chunkEnds.filter { $0 > start }.min() ?? bytes.count
            for part in bytes[start..<min(end, bytes.count)].split(separator: 0) {
                names.insert(String(decoding: part, as: UTF8.self))
            }
        }
        return (count, names)
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

extension GitRepository {
    /// `git rev-parse --short ID`: git's starting length (`core.abbrev`, or scaled with the
    /// approximate object count), extended until no other object shares the prefix.
    func shortID(_ oid: git_oid) throws -> String {
        let start =
            try ShortIdAbbreviation.configuredLength(configString("core.abbrev"))
            ?? ShortIdAbbreviation.automaticLength(
                approximateObjectCount: ShortIdAbbreviation.approximateObjectCount(objectDirectories: objectDirectories)
            )
        let hex = oid.hex
        if start >= ShortIdAbbreviation.fullLength { return hex }
        var odb: OpaquePointer?
        try GitLibrary.check(git_repository_odb(&odb, handle), "reading the object database")
        defer { git_odb_free(odb) }
        var length = start
        while length < ShortIdAbbreviation.fullLength {
            var prefix = oid
            var found = git_oid()
            let status = git_odb_exists_prefix(&found, odb, &prefix, length)
            if status == 0 || status == GIT_ENOTFOUND.rawValue { break }
            if status != GIT_EAMBIGUOUS.rawValue { try GitLibrary.check(status, "abbreviating \(hex)") }
            length += 1
        }
        return String(hex.prefix(length))
    }
}
