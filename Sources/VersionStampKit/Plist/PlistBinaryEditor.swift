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

/// Reads a binary property list (`bplist00`) and writes it back binary with new string values
/// (``PlistBinaryObjects``). Every other value keeps its type and its exact bytes; the layout of
/// the file is versionstamp's (a binary plist has no formatting worth preserving).
struct PlistBinaryEditor {
    /// One step from a container to a value inside it.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    static let magic = Array("bplist00".utf8)

    let path: String
    let objects: PlistBinaryObjects
    let root: PlistNode
    /// The location of each string, indexed by ``PlistString/slot``.
    private let stringSteps: [[Step]]

    init(data: Data, path: String) throws {
        self.path = path
        let bytes = [UInt8](data)
        // The reader trusts the object graph: check the structure first.
        try PlistBinaryValidator.validate(bytes, path: path)
        let objects = try PlistBinaryObjects(bytes: bytes, path: path)
        var steps: [[Step]] = []
        func build(_ reference: Int, _ at: [Step]) -> PlistNode {
            switch objects.objects[reference] {
            case let .dictionary(keys, values):
                // Duplicate keys: the last one wins, as in CoreFoundation and plistlib.
                var entries: [String: Int] = [:]
                for (key, value) in zip(keys, values) { entries[objects.string(at: key) ?? ""] = value }
                return .dictionary(
                    entries.keys.sorted().map { ($0, build(entries[$0] ?? 0, at + [.key($0)])) }, line: nil)
            case let .array(items):
                return .array(items.enumerated().map { build($0.element, at + [.index($0.offset)]) }, line: nil)
            case let .string(value, _):
                steps.append(at)
                return .string(PlistString(value: value, slot: steps.count - 1, line: nil))
            case let .scalar(type, _):
                return .other(type: type, line: nil)
            }
        }
        root = build(objects.top, [])
        stringSteps = steps
        self.objects = objects
    }

    /// The property list with `edits` applied, serialized as a binary plist.
    func applying(_ edits: [PlistStringEdit]) throws -> Data {
        var objects = self.objects
        for edit in edits {
            objects.replaceString(at: stringSteps[edit.slot][...], with: edit.newValue)
        }
        let data = Data(objects.serialized())
        // Read it back: the stamped strings must be there.
        let reread = try PlistBinaryEditor(data: data, path: path)
        let strings = Dictionary(
            reread.root.strings().map { ($0.path, $0.string.value) }, uniquingKeysWith: { a, _ in a })
        let expected = root.strings()
        for edit in edits {
            guard let entry = expected.first(where: { $0.string.slot == edit.slot }),
                strings[entry.path] == edit.newValue
            else {
                throw VersionStampError(
                    .internalError, path: path,
                    message: "internal error: the rewritten binary plist lost a stamped value")
            }
        }
        return data
    }
}

/// Checks the structure of a binary property list (`bplist00`) before it is read.
///
/// swift-corelibs-foundation trusts the object graph of a binary plist: a set holding an
/// array, or a dictionary whose key is an array, crashes the process while bridging to Swift
/// (found by fuzzing, see Fuzz/Regressions/plist-editor). versionstamp reads plists that
/// can come from anywhere, so it walks the trailer, offset table and every object reachable
/// from the top first, and refuses what property lists do not allow (sets, UIDs, non-string
/// keys, cycles, references out of range) with an error naming the file.
enum PlistBinaryValidator {
    /// Deeper nesting than this is refused (Foundation recurses once per level).
    static let maximumDepth = 512

    static func validate(_ bytes: [UInt8], path: String) throws {
        var walker = Walker(bytes: bytes, path: path)
        try walker.run()
    }

    private struct Walker {
        let bytes: [UInt8]
        let path: String
        var offsetSize = 0
        var referenceSize = 0
        var objectCount = 0
        var offsetTableStart = 0
        var validated: Set<Int> = []
        var onPath: Set<Int> = []

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
        }

        static func hex(_ byte: UInt8) -> String { (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }

        func error(_ message: String) -> VersionStampError {
            VersionStampError(.malformedPlist, path: path, message: "malformed binary plist: \(message)")
        }

        /// A big-endian unsigned integer of `size` bytes at `offset`, or nil past `limit`.
        func integer(at offset: Int, size: Int, limit: Int? = nil) -> Int? {
            let end = limit ?? bytes.count
            guard size >= 1, size <= 8, offset >= 0, offset <= end - size else { return nil }
            var value: UInt64 = 0
            for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }

        mutating func run() throws {
            let count = bytes.count
            guard count >= 8 + 1 + 32 else { throw error("too short for a header, an object and a trailer") }
            let trailer = count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
                throw error(
                    "the trailer gives offset size \(offsetSize) and reference size \(referenceSize) (1 to 8 allowed)")
            }
            guard let objects = integer(at: trailer + 8, size: 8), let top = integer(at: trailer + 16, size: 8),
                let tableStart = integer(at: trailer + 24, size: 8)
            else {
                throw error("the trailer's counts are out of range")
            }
            guard objects >= 1, top < objects, tableStart >= 9, tableStart <= trailer,
                objects <= (trailer - tableStart) / offsetSize
            else {
                throw error("the trailer's object count, top object or offset table is out of range")
            }
            objectCount = objects
            offsetTableStart = tableStart
            try visit(top, depth: 0)
        }

        /// The file offset of object `reference`, checked to lie between the header and the offset table.
        func offset(of reference: Int) throws -> Int {
            guard reference >= 0, reference < objectCount,
                let offset = integer(at: offsetTableStart + reference * offsetSize, size: offsetSize),
                offset >= 8, offset < offsetTableStart
            else {
                throw error("object \(reference) lies outside the object table")
            }
            return offset
        }

        /// The length in a marker's low nibble, or the integer object following it when the nibble is 0xF.
        /// Returns (length, offset of the first byte after the length).
        func length(marker: UInt8, at offset: Int) throws -> (Int, Int) {
            let nibble = Int(marker & 0x0F)
            guard nibble == 0x0F else { return (nibble, offset + 1) }
            guard offset + 1 < offsetTableStart else { throw error("a length runs into the offset table") }
            let lengthMarker = bytes[offset + 1]
            guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else { throw error("a length is not an integer") }
            let size = 1 << Int(lengthMarker & 0x0F)
            guard let value = integer(at: offset + 2, size: size, limit: offsetTableStart) else {
                throw error("a length runs into the offset table")
            }
            return (value, offset + 2 + size)
        }

        /// Checks that `size` bytes from `start` lie before the offset table.
        func require(_ start: Int, _ size: Int) throws {
            guard size >= 0, start <= offsetTableStart, size <= offsetTableStart - start else {
                throw error("an object runs into the offset table")
            }
        }

        func references(at start: Int, count: Int) throws -> [Int] {
            guard count <= (offsetTableStart - start) / referenceSize else {
                throw error("a container runs into the offset table")
            }
            return try (0..<count).map { index in
                guard let reference = integer(at: start + index * referenceSize, size: referenceSize) else {
                    throw error("a container runs into the offset table")
                }
                return reference
            }
        }

        func isString(_ reference: Int) throws -> Bool {
            let marker = bytes[try offset(of: reference)] >> 4
            return marker == 0x5 || marker == 0x6
        }

        mutating func visit(_ reference: Int, depth: Int) throws {
            if validated.contains(reference) { return }
            guard depth <= PlistBinaryValidator.maximumDepth else {
                throw error("nested deeper than \(PlistBinaryValidator.maximumDepth) levels")
            }
            guard !onPath.contains(reference) else { throw error("object \(reference) contains itself") }
            let start = try offset(of: reference)
            let marker = bytes[start]
            switch marker >> 4 {
            case 0x0:
                guard [0x00, 0x08, 0x09, 0x0F].contains(marker) else {
                    throw error("unknown object type 0x\(Self.hex(marker))")
                }
            case 0x1:
                guard marker & 0x0F <= 4 else { throw error("an integer wider than 16 bytes") }
                try require(start + 1, 1 << Int(marker & 0x0F))
            case 0x2:
                guard marker & 0x0F == 2 || marker & 0x0F == 3 else {
                    throw error("a real that is neither 4 nor 8 bytes")
                }
                try require(start + 1, 1 << Int(marker & 0x0F))
            case 0x3:
                guard marker == 0x33 else { throw error("unknown object type 0x\(Self.hex(marker))") }
                try require(start + 1, 8)
            case 0x4, 0x5:
                let (count, body) = try length(marker: marker, at: start)
                try require(body, count)
            case 0x6:
                let (count, body) = try length(marker: marker, at: start)
                guard count <= Int.max / 2 else { throw error("a string is too long") }
                try require(body, count * 2)
            case 0x8:
                throw error("holds a UID (an NSKeyedArchiver archive), not a property list value")
            case 0xA:
                let (count, body) = try length(marker: marker, at: start)
                let items = try references(at: body, count: count)
                onPath.insert(reference)
                for item in items { try visit(item, depth: depth + 1) }
                onPath.remove(reference)
            case 0xC:
                throw error("holds a set, which property lists do not allow")
            case 0xD:
                let (count, body) = try length(marker: marker, at: start)
                guard count <= Int.max / 2 else { throw error("a dictionary is too long") }
                let items = try references(at: body, count: count * 2)
                for key in items.prefix(count) where !(try isString(key)) {
                    throw error("a dictionary key is not a string")
                }
                onPath.insert(reference)
                for item in items { try visit(item, depth: depth + 1) }
                onPath.remove(reference)
            default:
                throw error("unknown object type 0x\(Self.hex(marker))")
            }
            validated.insert(reference)
        }
    }
}
