/// The object table of a binary property list (`bplist00`), read and written by versionstamp
/// itself (PropertyListSerialization is Foundation's, not FoundationEssentials').
///
/// Reading keeps every value that is not a string as the bytes that encode it (an integer of
/// any width, a 4-byte real, a date, data), so that writing copies it exactly; strings are
/// decoded, and written back as they were unless a stamp replaced them. Containers are lists of
/// references. The input must have passed ``PlistBinaryValidator`` (its object graph is then
/// known to be a finite tree of valid objects, possibly sharing subtrees).
struct PlistBinaryObjects {
    enum Object: Equatable {
        /// A value that is not a string or a container: its marker and payload, as read.
        case scalar(type: String, bytes: [UInt8])
        /// A string, and how the input encoded it (nil for a new one).
        case string(String, encoded: [UInt8]?)
        case array([Int])
        /// Keys and values, in the file's order.
        case dictionary(keys: [Int], values: [Int])
    }

    private(set) var objects: [Object]
    private(set) var top: Int

    /// Reads every object reachable from the top one.
    init(bytes: [UInt8], path: String) throws {
        let reader = Reader(bytes: bytes, path: path)
        var objects: [Object] = []
        var index: [Int: Int] = [:]
        func read(_ reference: Int) throws -> Int {
            if let known = index[reference] { return known }
            let object = try reader.object(reference)
            let children: [Int]
            switch object {
            case let .array(items): children = items
            case let .dictionary(keys, values): children = keys + values
            default: children = []
            }
            let mapped = try children.map(read)
            index[reference] = objects.count
            switch object {
            case .array: objects.append(.array(mapped))
            case let .dictionary(keys, _):
                objects.append(.dictionary(keys: Array(mapped[..<keys.count]), values: Array(mapped[keys.count...])))
            default: objects.append(object)
            }
            return objects.count - 1
        }
        self.objects = []
        self.top = 0
        top = try read(reader.top)
        self.objects = objects
    }

    /// The string at `steps` from the top (keys: the last entry of that name) replaced by
    /// `value`. Each container on the way is copied, so a subtree the file shares between two
    /// places changes only where the path goes.
    mutating func replaceString(at steps: ArraySlice<PlistBinaryEditor.Step>, with value: String) {
        top = replacing(in: top, at: steps, with: value)
    }

    private mutating func replacing(in reference: Int, at steps: ArraySlice<PlistBinaryEditor.Step>, with value: String)
        -> Int
    {
        guard let step = steps.first else {
            objects.append(.string(value, encoded: nil))
            return objects.count - 1
        }
        switch (objects[reference], step) {
        case (.dictionary(let keys, var values), .key(let key)):
            guard let slot = keys.lastIndex(where: { string(at: $0) == key }) else { return reference }
            values[slot] = replacing(in: values[slot], at: steps.dropFirst(), with: value)
            objects.append(.dictionary(keys: keys, values: values))
        case (.array(var items), .index(let index)) where index < items.count:
            items[index] = replacing(in: items[index], at: steps.dropFirst(), with: value)
            objects.append(.array(items))
        default:
            return reference
        }
        return objects.count - 1
    }

    /// The string object `reference` holds, nil for another kind.
    func string(at reference: Int) -> String? {
        if case let .string(value, _) = objects[reference] { return value }
        return nil
    }

    /// The property list written as `bplist00`: the objects reachable from the top, each once.
    func serialized() -> [UInt8] {
        var order: [Int] = []
        var number: [Int: Int] = [:]
        var pending = [top]
        while let reference = pending.popLast() {
            guard number[reference] == nil else { continue }
            number[reference] = order.count
            order.append(reference)
            switch objects[reference] {
            case let .array(items): pending += items.reversed()
            case let .dictionary(keys, values): pending += (keys + values).reversed()
            default: break
            }
        }
        let referenceSize = Self.byteCount(order.count - 1)
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        func append(_ value: Int, size: Int) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        func appendMarker(_ kind: UInt8, count: Int) {
            if count < 15 {
                output.append(kind << 4 | UInt8(count))
            } else {
                output.append(kind << 4 | 0x0F)
                let size = Self.byteCount(count)
                let power: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
                output.append(0x10 | power)
                append(count, size: 1 << Int(power))
            }
        }
        for reference in order {
            offsets.append(output.count)
            switch objects[reference] {
            case let .scalar(_, bytes), let .string(_, bytes?):
                output += bytes
            case let .string(value, nil):
                if value.unicodeScalars.allSatisfy(\.isASCII) {
                    appendMarker(0x5, count: value.utf8.count)
                    output += value.utf8
                } else {
                    appendMarker(0x6, count: value.utf16.count)
                    for unit in value.utf16 { append(Int(unit), size: 2) }
                }
            case let .array(items):
                appendMarker(0xA, count: items.count)
                for item in items { append(number[item] ?? 0, size: referenceSize) }
            case let .dictionary(keys, values):
                appendMarker(0xD, count: keys.count)
                for item in keys + values { append(number[item] ?? 0, size: referenceSize) }
            }
        }
        let tableStart = output.count
        let offsetSize = Self.byteCount(offsets.last ?? 0)
        for offset in offsets { append(offset, size: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        append(order.count, size: 8)
        append(0, size: 8)
        append(tableStart, size: 8)
        return output
    }

    /// The bytes an unsigned value needs: 1, 2, 4 or 8.
    private static func byteCount(_ value: Int) -> Int {
        value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
    }

    /// Decodes one object at a time from a validated `bplist00`.
    private struct Reader {
        let bytes: [UInt8]
        let path: String
        let offsetSize: Int
        let referenceSize: Int
        let tableStart: Int
        let top: Int

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            func integer(_ at: Int) -> Int { (at..<(at + 8)).reduce(0) { $0 << 8 | Int(bytes[$1]) } }
            top = integer(trailer + 16)
            tableStart = integer(trailer + 24)
        }

        func integer(at offset: Int, size: Int) -> Int {
            (offset..<(offset + size)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }

        /// The count in a marker's low nibble, or the integer that follows it; and where the body starts.
        func count(at start: Int) -> (Int, Int) {
            let nibble = Int(bytes[start] & 0x0F)
            guard nibble == 0x0F else { return (nibble, start + 1) }
            let size = 1 << Int(bytes[start + 1] & 0x0F)
            return (integer(at: start + 2, size: size), start + 2 + size)
        }

        func object(_ reference: Int) throws -> Object {
            let start = integer(at: tableStart + reference * offsetSize, size: offsetSize)
            let marker = bytes[start]
            switch marker >> 4 {
            case 0x0:
                let type = marker == 0x08 ? "false" : marker == 0x09 ? "true" : marker == 0x00 ? "null" : "fill"
                return .scalar(type: type, bytes: [marker])
            case 0x1: return .scalar(type: "integer", bytes: Array(bytes[start...(start + (1 << Int(marker & 0x0F)))]))
            case 0x2: return .scalar(type: "real", bytes: Array(bytes[start...(start + (1 << Int(marker & 0x0F)))]))
            case 0x3: return .scalar(type: "date", bytes: Array(bytes[start..<(start + 9)]))
            case 0x4:
                let (length, body) = count(at: start)
                return .scalar(type: "data", bytes: Array(bytes[start..<(body + length)]))
            case 0x5:
                let (length, body) = count(at: start)
                let text = bytes[body..<(body + length)]
                guard text.allSatisfy({ $0 < 0x80 }) else {
                    throw VersionStampError(
                        .malformedPlist, path: path,
                        message: "malformed binary plist: an ASCII string holds a byte above 0x7F")
                }
                return .string(String(decoding: text, as: UTF8.self), encoded: Array(bytes[start..<(body + length)]))
            case 0x6:
                let (length, body) = count(at: start)
                let units = (0..<length).map { UInt16(integer(at: body + 2 * $0, size: 2)) }
                return .string(
                    String(decoding: units, as: UTF16.self), encoded: Array(bytes[start..<(body + 2 * length)]))
            case 0xA:
                let (length, body) = count(at: start)
                return .array((0..<length).map { integer(at: body + $0 * referenceSize, size: referenceSize) })
            default: // 0xD: the validator lets nothing else through
                let (length, body) = count(at: start)
                let items = (0..<(2 * length)).map { integer(at: body + $0 * referenceSize, size: referenceSize) }
                return .dictionary(keys: Array(items[..<length]), values: Array(items[length...]))
            }
        }
    }
}
