import CGit2
import Foundation

/// A SHA-1 object id as three machine words: cheap to hash, compare and store by the
/// hundred thousand (the in-memory history holds one per commit).
struct ObjectID: Hashable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt32

    /// The id held in libgit2's `git_oid`.
    init(_ oid: git_oid) {
        var copy = oid
        (w0, w1, w2) = withUnsafeBytes(of: &copy.id) { ObjectID.words($0.baseAddress!) }
    }

    /// The id stored as 20 raw bytes at `bytes`.
    init(bytes: UnsafeRawPointer) {
        (w0, w1, w2) = ObjectID.words(bytes)
    }

    private static func words(_ p: UnsafeRawPointer) -> (UInt64, UInt64, UInt32) {
        (p.loadUnaligned(as: UInt64.self), p.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
         p.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
    }

    /// The id as libgit2's `git_oid`.
    var gitOID: git_oid {
        var oid = git_oid()
        var words = self
        withUnsafeBytes(of: &words) { source in
            withUnsafeMutableBytes(of: &oid.id) { target in
                target.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: 20)
            }
        }
        return oid
    }

    /// The 40-digit hexadecimal id.
    var hex: String { gitOID.hex }

    /// Parses 40 lowercase or uppercase hex digits at `p`; nil when they are not hex.
    @inline(__always)
    static func parseHex(_ p: UnsafePointer<UInt8>) -> ObjectID? {
        var raw = (UInt64(0), UInt64(0), UInt32(0))
        var bad: UInt8 = 0
        withUnsafeMutableBytes(of: &raw) { out in
            for i in 0..<20 {
                let high = hexTable[Int(p[2 * i])], low = hexTable[Int(p[2 * i + 1])]
                bad |= (high | low) & 0x10
                out[i] = high << 4 | (low & 0x0f)
            }
        }
        guard bad == 0 else { return nil }
        return withUnsafeBytes(of: &raw) { ObjectID(bytes: $0.baseAddress!) }
    }

    /// Hex digit values; 0x10 marks a byte that is not a hex digit.
    private static let hexTable: [UInt8] = (0..<256).map { c -> UInt8 in
        switch c {
        case 48...57: return UInt8(c - 48)
        case 97...102: return UInt8(c - 87)
        case 65...70: return UInt8(c - 55)
        default: return 0x10
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(w0) }
}

/// The kinds of object the history engine reads.
enum ObjectKind: Int {
    case commit = 1, tree = 2, blob = 3, tag = 4
}

/// Reads commits and trees from the object database, faster than libgit2 alone: objects
/// stored whole in a pack are found through the pack index and inflated here (a commit only
/// as far as its header, which is all the history walk needs); deltified, loose or alternate
/// objects are read through libgit2. Not thread-safe: one store per reader.
final class ObjectStore {
    private let odb: OpaquePointer
    private var packs: [PackPair] = []
    private var stream = z_stream()
    private var scratch = [UInt8](repeating: 0, count: 4096)

    /// The object store of `repository` (its packs are mapped now, read lazily by the kernel).
    init(repository: GitRepository) throws {
        var database: OpaquePointer?
        try GitLibrary.check(git_repository_odb(&database, repository.handle), "opening the object database")
        odb = database!
        packs = PackPair.openAll(in: repository.commonDirectory + "/objects/pack")
        guard shipyard_inflate_init(&stream) == Z_OK else {
            throw HistoryErrors.damaged("zlib cannot be initialised")
        }
    }

    deinit {
        inflateEnd(&stream)
        git_odb_free(odb)
    }

    /// Calls `body` with the object's bytes: the whole object, or with `limit` only its first
    /// `limit` bytes or more (the second argument tells whether they are the whole object).
    func withObject<R>(_ id: ObjectID, _ kind: ObjectKind, limit: Int = .max,
                       _ body: (UnsafeBufferPointer<UInt8>, Bool) throws -> R) throws -> R {
        if let located = locate(id), located.kind == kind.rawValue {
            let wanted = min(located.size, limit)
            if let count = inflate(located.data, located.available, size: wanted), count == wanted {
                return try scratch.withUnsafeBufferPointer {
                    try body(UnsafeBufferPointer(rebasing: $0[0..<count]), count == located.size)
                }
            }
        }
        return try withLibraryObject(id, kind) { try body($0, true) }
    }

    /// The object through libgit2 (loose, deltified, alternates), checking its type.
    private func withLibraryObject<R>(_ id: ObjectID, _ kind: ObjectKind,
                                      _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        var oid = id.gitOID
        var object: OpaquePointer?
        try GitLibrary.check(git_odb_read(&object, odb, &oid), "reading object \(id.hex)")
        defer { git_odb_object_free(object) }
        guard git_odb_object_type(object).rawValue == Int32(kind.rawValue) else {
            throw HistoryErrors.damaged("object \(id.hex) is not a \(kind)")
        }
        let size = git_odb_object_size(object)
        let data = git_odb_object_data(object)!.assumingMemoryBound(to: UInt8.self)
        return try body(UnsafeBufferPointer(start: data, count: size))
    }

    /// Where a whole (not deltified) packed object's zlib data starts, its kind and size.
    private func locate(_ id: ObjectID) -> (kind: Int, size: Int, data: UnsafePointer<UInt8>, available: Int)? {
        for pack in packs {
            guard let offset = pack.offset(of: id) else { continue }
            return pack.entry(at: offset)
        }
        return nil
    }

    /// Inflates up to `size` bytes from `data` into `scratch`; the byte count, nil on error.
    private func inflate(_ data: UnsafePointer<UInt8>, _ available: Int, size: Int) -> Int? {
        if scratch.count < size + 1 { scratch = [UInt8](repeating: 0, count: max(size + 1, scratch.count * 2)) }
        guard inflateReset(&stream) == Z_OK else { return nil }
        return scratch.withUnsafeMutableBufferPointer { out -> Int? in
            stream.next_in = UnsafeMutablePointer(mutating: data)
            stream.avail_in = UInt32(clamping: available)
            stream.next_out = out.baseAddress
            stream.avail_out = UInt32(size)
            while stream.avail_out > 0 {
                let status = CGit2.inflate(&stream, Z_NO_FLUSH)
                if status == Z_STREAM_END { break }
                if status != Z_OK { return nil }
            }
            return size - Int(stream.avail_out)
        }
    }
}
