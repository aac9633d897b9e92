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

/// A read-only memory mapping of a whole file; unmapped on deinit.
final class MappedFile {
    let bytes: UnsafePointer<UInt8>
    let count: Int

    /// Maps `path`; nil when it cannot be opened or is empty.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        guard let pointer = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0),
            pointer != MAP_FAILED
        else { return nil }
        bytes = UnsafePointer(pointer.assumingMemoryBound(to: UInt8.self))
        count = Int(info.st_size)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes), count) }

    /// The big-endian 32-bit number at `offset`.
    @inline(__always)
    func uint32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt32.self))
    }
}

/// One pack (`pack-X.pack`) and its version-2 index (`pack-X.idx`): finds an object's offset
/// by the index's fan-out table and a binary search, and decodes the entry header there.
/// Anything unexpected (a version-1 index, a truncated file) makes the pack unusable here, and
/// its objects are then read through libgit2.
struct PackFile {
    private let index: MappedFile
    private let pack: MappedFile
    private let objectCount: Int

    /// The usable packs in `directory` (`.git/objects/pack`), in directory order.
    static func openAll(in directory: String) -> [PackFile] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".idx") }.sorted().compactMap { name in
            let base = directory + "/" + name.dropLast(4)
            guard let index = MappedFile(path: base + ".idx"), let pack = MappedFile(path: base + ".pack") else {
                return nil
            }
            return PackFile(index: index, pack: pack)
        }
    }

    private init?(index: MappedFile, pack: MappedFile) {
        // Header "\377tOc", version 2, 256 fan-out entries; pack header "PACK".
        guard index.count >= 8 + 1024, index.uint32(at: 0) == 0xff74_4f63, index.uint32(at: 4) == 2,
            pack.count >= 12, pack.uint32(at: 0) == 0x5041_434b
        else { return nil }
        let count = Int(index.uint32(at: 8 + 255 * 4))
        // Ids, CRCs and offsets must fit (the large-offset table is checked on use).
        guard index.count >= 8 + 1024 + count * 28 else { return nil }
        self.index = index
        self.pack = pack
        objectCount = count
    }

    /// The pack offset of `id`, nil when this pack does not hold it.
    ///
    /// Ids are uniformly distributed, so within the fan-out range the search interpolates on
    /// the first 8 bytes (two or three probes instead of sixteen), then finishes by bisection.
    func offset(of id: ObjectID) -> Int? {
        let key = UInt64(bigEndian: id.w0)
        let first = Int(key >> 56)
        var low = first == 0 ? 0 : Int(index.uint32(at: 8 + (first - 1) * 4))
        var high = Int(index.uint32(at: 8 + first * 4))
        guard low <= high, high <= objectCount else { return nil } // a damaged fan-out table
        let ids = UnsafeRawPointer(index.bytes + 8 + 1024)
        func prefix(_ position: Int) -> UInt64 {
            UInt64(bigEndian: ids.loadUnaligned(fromByteOffset: position * 20, as: UInt64.self))
        }
        var target = id
        var probes = 0
        while low < high {
            var middle = (low + high) / 2
            if probes < 4 {
                let lowValue = prefix(low), highValue = prefix(high - 1)
                if key < lowValue || key > highValue { return nil }
                if highValue > lowValue {
                    let fraction = Double(key - lowValue) / Double(highValue - lowValue)
                    middle = min(high - 1, low + Int(fraction * Double(high - 1 - low)))
                }
                probes += 1
            }
            let candidate = prefix(middle)
            var order: Int32
            if candidate != key {
                order = candidate < key ? -1 : 1
            } else {
                // Target is a 20-byte value, so its bytes have a base address.
                // swift-format-ignore: NeverForceUnwrap
                order = withUnsafeBytes(of: &target) { memcmp(ids + middle * 20, $0.baseAddress!, 20) }
            }
            if order == 0 { return entryOffset(middle) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    private func entryOffset(_ position: Int) -> Int? {
        let table = 8 + 1024 + objectCount * 24
        let small = index.uint32(at: table + position * 4)
        if small & 0x8000_0000 == 0 { return Int(small) }
        let large = table + objectCount * 4 + Int(small & 0x7fff_ffff) * 8
        guard large + 8 <= index.count else { return nil }
        let value = (UInt64(index.uint32(at: large)) << 32) | UInt64(index.uint32(at: large + 4))
        return value < UInt64(pack.count) ? Int(value) : nil
    }

    /// An entry's header: its kind (1 commit, 2 tree, 3 blob, 4 tag, 6 offset delta, 7
    /// reference delta), inflated size, where its zlib data starts, and for a delta its base.
    struct Entry {
        var kind: Int
        var size: Int
        var data: UnsafePointer<UInt8>
        var available: Int
        var baseOffset: Int?
        var baseID: ObjectID?
    }

    /// The header of the entry at `offset`; nil when malformed.
    func entry(at offset: Int) -> Entry? {
        var position = offset
        guard position < pack.count - 20 else { return nil }
        var byte = pack.bytes[position]
        let kind = Int(byte >> 4) & 7
        var size = Int(byte & 15)
        var shift = 4
        while byte & 0x80 != 0 {
            position += 1
            guard position < pack.count - 20, shift < 60 else { return nil }
            byte = pack.bytes[position]
            size |= Int(byte & 0x7f) << shift
            shift += 7
        }
        position += 1
        var entry = Entry(kind: kind, size: size, data: pack.bytes, available: 0)
        switch kind {
        case 1...4: break
        case 6:
            // The base's distance back: big-endian base-128 with an offset added per byte.
            byte = pack.bytes[position]
            var distance = Int(byte & 0x7f)
            while byte & 0x80 != 0 {
                position += 1
                guard position < pack.count - 20, distance < (1 << 50) else { return nil }
                byte = pack.bytes[position]
                distance = ((distance + 1) << 7) | Int(byte & 0x7f)
            }
            position += 1
            guard distance > 0, distance <= offset else { return nil }
            entry.baseOffset = offset - distance
        case 7:
            guard position + 20 < pack.count else { return nil }
            entry.baseID = ObjectID(bytes: UnsafeRawPointer(pack.bytes + position))
            position += 20
        default:
            return nil
        }
        entry.data = pack.bytes + position
        entry.available = pack.count - position
        return entry
    }
}

/// git's pack delta format: an object rebuilt from its base by copy and insert instructions.
enum PackDelta {
    /// The object `delta` describes over `base`; nil when the delta is malformed or was made
    /// for a base of another size.
    static func apply(_ delta: [UInt8], to base: [UInt8]) -> [UInt8]? {
        var position = 0
        guard let sourceSize = size(delta, &position), sourceSize == base.count,
            let targetSize = size(delta, &position)
        else { return nil }
        var ok = true
        let result = [UInt8](unsafeUninitializedCapacity: max(targetSize, 1)) { target, initialized in
            delta.withUnsafeBufferPointer { d in
                base.withUnsafeBufferPointer { b in
                    // The capacity is at least 1, so the buffer has a base address.
                    // swift-format-ignore: NeverForceUnwrap
                    ok = run(d, from: position, base: b, into: target.baseAddress!, size: targetSize)
                }
            }
            initialized = ok ? targetSize : 0
        }
        return ok ? result : nil
    }

    /// Runs the copy and insert instructions from `start`, writing exactly `size` bytes.
    private static func run(
        _ d: UnsafeBufferPointer<UInt8>, from start: Int, base b: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>, size: Int
    ) -> Bool {
        var position = start, written = 0
        while position < d.count {
            let op = d[position]
            position += 1
            var length = 0
            if op & 0x80 != 0 {
                var offset = 0
                for bit in 0..<4 where op & (1 << bit) != 0 {
                    guard position < d.count else { return false }
                    offset |= Int(d[position]) << (8 * bit)
                    position += 1
                }
                for bit in 0..<3 where op & (0x10 << bit) != 0 {
                    guard position < d.count else { return false }
                    length |= Int(d[position]) << (8 * bit)
                    position += 1
                }
                if length == 0 { length = 0x10000 }
                guard offset + length <= b.count, written + length <= size else { return false }
                // Length > 0 bytes of b are read (checked above), so b has a base address.
                // swift-format-ignore: NeverForceUnwrap
                (out + written).update(from: b.baseAddress! + offset, count: length)
            } else if op != 0 {
                length = Int(op)
                guard position + length <= d.count, written + length <= size else { return false }
                // As above: length > 0 bytes of d, so d has a base address.
                // swift-format-ignore: NeverForceUnwrap
                (out + written).update(from: d.baseAddress! + position, count: length)
                position += length
            } else {
                return false // reserved
            }
            written += length
        }
        return written == size
    }

    /// A little-endian base-128 size.
    private static func size(_ delta: [UInt8], _ position: inout Int) -> Int? {
        var value = 0, shift = 0
        while position < delta.count {
            let byte = delta[position]
            position += 1
            value |= Int(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 56 { return nil }
        }
        return nil
    }
}
