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

/// The kinds of object the history engine reads.
enum ObjectKind: Int {
    case commit = 1
    case tree = 2
    case blob = 3
    case tag = 4
}

/// Reads commits and trees from the object database, faster than libgit2 alone: objects
/// stored whole in a pack are found through the pack index and inflated here (a commit only
/// as far as its header, which is all the history walk needs); deltified, loose or alternate
/// objects are read through libgit2. Packs are read in every object directory, alternates
/// included. An object that a replace ref replaces is read from its replacement
/// (`ObjectReplacements`). Not thread-safe: one store per reader.
final class ObjectStore {
    private let odb: OpaquePointer
    private var packs: [PackFile] = []
    private var stream = z_stream()
    private var scratch = [UInt8](repeating: 0, count: 4096)
    /// Rebuilt packed objects by pack and offset, oldest evicted first past `cacheLimit` bytes.
    private var baseCache: [Int: (kind: Int, bytes: [UInt8])] = [:]
    private var cachedKeys: [Int] = []
    private var evicted = 0
    private var cachedBytes = 0
    private static let cacheLimit = 16 << 20
    /// How many objects were rebuilt from pack deltas here (not by libgit2); for tests.
    private(set) var deltaReads = 0
    /// How many objects were read through libgit2 (loose, or in no pack read here); for tests.
    private(set) var libraryReads = 0
    /// Replace refs and grafts: an object is read from its replacement, as git reads it.
    let replacements: ObjectReplacements
    /// False when no object is replaced: the usual case skips the lookup on every read.
    private let hasReplacedObjects: Bool

    /// The object store of `repository` (its packs are mapped now, read lazily by the kernel).
    init(repository: GitRepository) throws {
        var database: OpaquePointer?
        try GitLibrary.check(git_repository_odb(&database, repository.handle), "opening the object database")
        // Git_repository_odb succeeded (checked above), so it set database.
        // swift-format-ignore: NeverForceUnwrap
        odb = database!
        replacements = try repository.replacements()
        hasReplacedObjects = !replacements.objects.isEmpty
        // Every object directory's packs, alternates included: a clone made with `--shared` or
        // `--reference` keeps its history there, and libgit2 alone reads it slowly.
        packs = repository.objectDirectories.flatMap { PackFile.openAll(in: $0 + "/pack") }
        guard shipyard_inflate_init_raw(&stream) == Z_OK else {
            throw VersionStampError.unreadableHistory("zlib cannot be initialised")
        }
    }

    deinit {
        inflateEnd(&stream)
        git_odb_free(odb)
    }

    /// Calls `body` with the object's bytes: the whole object, or with `limit` only its first
    /// `limit` bytes or more (the second argument tells whether they are the whole object).
    func withObject<R>(
        _ id: ObjectID, _ kind: ObjectKind, limit: Int = .max,
        _ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> R
    ) throws -> R {
        let id = hasReplacedObjects ? replacements.content(of: id) : id
        if let (pack, offset) = locate(id), let entry = packs[pack].entry(at: offset) {
            if entry.kind == kind.rawValue {
                let wanted = min(entry.size, limit)
                if let count = inflate(entry.data, entry.available, size: wanted), count == wanted {
                    return try scratch.withUnsafeBufferPointer {
                        try body(UnsafeBufferPointer(rebasing: $0[0..<count]), count == entry.size)
                    }
                }
            } else if entry.kind >= 6, let resolved = resolve(pack, offset, depth: 0), resolved.kind == kind.rawValue {
                deltaReads += 1
                return try resolved.bytes.withUnsafeBufferPointer { try body($0, true) }
            }
        }
        return try withLibraryObject(id, kind) { try body($0, true) }
    }

    /// The kind and bytes of the packed object at `offset`, deltas applied; recently rebuilt
    /// objects are kept (by pack offset) since deltas of neighbouring trees share bases.
    private func resolve(_ pack: Int, _ offset: Int, depth: Int) -> (kind: Int, bytes: [UInt8])? {
        let key = pack << 48 | offset
        if let cached = baseCache[key] { return cached }
        guard depth < 10_000, let entry = packs[pack].entry(at: offset),
            let data = inflateWhole(entry.data, entry.available, size: entry.size)
        else { return nil }
        var result: (kind: Int, bytes: [UInt8])
        if entry.kind <= 4 {
            result = (entry.kind, data)
        } else {
            var baseOffset = entry.baseOffset
            if let baseID = entry.baseID { baseOffset = packs[pack].offset(of: baseID) }
            guard let baseOffset, let base = resolve(pack, baseOffset, depth: depth + 1),
                let rebuilt = PackDelta.apply(data, to: base.bytes)
            else { return nil }
            result = (base.kind, rebuilt)
        }
        remember(key, result)
        return result
    }

    private func remember(_ key: Int, _ value: (kind: Int, bytes: [UInt8])) {
        baseCache[key] = value
        cachedKeys.append(key)
        cachedBytes += value.bytes.count + 64
        while cachedBytes > Self.cacheLimit, evicted < cachedKeys.count {
            if let old = baseCache.removeValue(forKey: cachedKeys[evicted]) { cachedBytes -= old.bytes.count + 64 }
            evicted += 1
        }
        if evicted > 4096 && evicted * 2 > cachedKeys.count {
            cachedKeys.removeFirst(evicted)
            evicted = 0
        }
    }

    /// The whole object as an array: rebuilt delta results are shared with the cache, not copied.
    func objectBytes(_ id: ObjectID, _ kind: ObjectKind) throws -> [UInt8] {
        let id = hasReplacedObjects ? replacements.content(of: id) : id
        if let (pack, offset) = locate(id), let entry = packs[pack].entry(at: offset) {
            if entry.kind == kind.rawValue, let bytes = inflateWhole(entry.data, entry.available, size: entry.size) {
                return bytes
            }
            if entry.kind >= 6, let resolved = resolve(pack, offset, depth: 0), resolved.kind == kind.rawValue {
                deltaReads += 1
                return resolved.bytes
            }
        }
        return try withLibraryObject(id, kind) { Array($0) }
    }

    /// The object through libgit2 (loose, deltified, alternates), checking its type.
    private func withLibraryObject<R>(
        _ id: ObjectID, _ kind: ObjectKind,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) throws -> R {
        libraryReads += 1
        var oid = id.gitOID
        var object: OpaquePointer?
        try GitLibrary.check(git_odb_read(&object, odb, &oid), "reading object \(id.hex)")
        defer { git_odb_object_free(object) }
        guard git_odb_object_type(object).rawValue == Int32(kind.rawValue) else {
            throw VersionStampError.unreadableHistory("object \(id.hex) is not a \(kind)")
        }
        let size = git_odb_object_size(object)
        // A read object has data, even when empty (libgit2 gives a pointer to its buffer).
        // swift-format-ignore: NeverForceUnwrap
        let data = git_odb_object_data(object)!.assumingMemoryBound(to: UInt8.self)
        return try body(UnsafeBufferPointer(start: data, count: size))
    }

    /// The pack holding `id` and the entry's offset there.
    private func locate(_ id: ObjectID) -> (Int, Int)? {
        for (i, pack) in packs.enumerated() {
            if let offset = pack.offset(of: id) { return (i, offset) }
        }
        return nil
    }

    /// Inflates exactly `size` bytes into a new array; nil on error.
    private func inflateWhole(_ data: UnsafePointer<UInt8>, _ available: Int, size: Int) -> [UInt8]? {
        var produced: Int?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            // The capacity is at least 1, so the buffer has a base address.
            // swift-format-ignore: NeverForceUnwrap
            produced = inflate(data, available, into: buffer.baseAddress!, size: size)
            count = produced == size ? size : 0
        }
        return produced == size ? bytes : nil
    }

    /// Inflates up to `size` bytes from `data` into `scratch`; the byte count, nil on error.
    private func inflate(_ data: UnsafePointer<UInt8>, _ available: Int, size: Int) -> Int? {
        if scratch.count < size + 1 { scratch = [UInt8](repeating: 0, count: max(size + 1, scratch.count * 2)) }
        return scratch.withUnsafeMutableBufferPointer { out in
            // Scratch holds at least size + 1 bytes, so it has a base address.
            // swift-format-ignore: NeverForceUnwrap
            inflate(data, available, into: out.baseAddress!, size: size)
        }
    }

    /// Inflates the zlib stream at `data` (its 2-byte header checked and skipped) into `out`,
    /// at most `size` bytes; the byte count written, nil on a zlib error.
    private func inflate(
        _ data: UnsafePointer<UInt8>, _ available: Int, into out: UnsafeMutablePointer<UInt8>,
        size: Int
    ) -> Int? {
        guard available > 2, data[0] & 0x0f == 8, data[1] & 0x20 == 0, inflateReset(&stream) == Z_OK else { return nil }
        stream.next_in = UnsafeMutablePointer(mutating: data + 2) // past the zlib header
        stream.avail_in = UInt32(clamping: available - 2)
        stream.next_out = out
        stream.avail_out = UInt32(size)
        while stream.avail_out > 0 {
            let status = CGit2.inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { break }
            if status != Z_OK { return nil }
        }
        return size - Int(stream.avail_out)
    }
}
