/// Reads the wire format's primitives from bytes, checking every length against the bytes left
/// before allocating, and failing with a ``SyncDecodingError`` that names the field.
struct WireReader {
    private let bytes: [UInt8]
    private(set) var index: Int

    init(_ bytes: [UInt8], from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var remaining: Int { bytes.count - index }

    func malformed(_ field: String, _ problem: String) -> SyncDecodingError {
        SyncDecodingError(.malformed, field: field, problem: problem)
    }

    mutating func u8(_ field: @autoclosure () -> String) throws -> UInt8 {
        guard index < bytes.count else { throw malformed(field(), "the message ends before this byte") }
        defer { index += 1 }
        return bytes[index]
    }

    /// Unsigned LEB128: at most 10 bytes, no overlong form, no bits past 64.
    mutating func varint(_ field: @autoclosure () -> String) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let start = index
        while true {
            guard index < bytes.count else { throw malformed(field(), "the message ends inside a varint") }
            let byte = bytes[index]
            index += 1
            if shift == 63 && byte > 1 {
                throw malformed(field(), "varint longer than 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                if byte == 0 && index - start > 1 { throw malformed(field(), "overlong varint") }
                return value
            }
            shift += 7
        }
    }

    /// A zigzag varint.
    mutating func svarint(_ field: @autoclosure () -> String) throws -> Int64 {
        let raw = try varint(field())
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A count of items that take at least one byte each: never more than the bytes left, nor than `limit`.
    mutating func count(_ field: @autoclosure () -> String, limit: Int? = nil) throws -> Int {
        let raw = try varint(field())
        if let limit, raw > UInt64(limit) {
            throw SyncDecodingError(
                .overLimit, field: field(), problem: "\(raw) items, more than the limit of \(limit)")
        }
        guard raw <= UInt64(remaining) else {
            throw malformed(field(), "\(raw) items, but only \(remaining) bytes are left")
        }
        return Int(raw)
    }

    /// A varint index below `bound`.
    mutating func index(_ field: @autoclosure () -> String, below bound: Int, of what: @autoclosure () -> String)
        throws -> Int
    {
        let raw = try varint(field())
        guard raw < UInt64(bound) else { throw malformed(field(), "index \(raw) past the \(bound) \(what())") }
        return Int(raw)
    }

    mutating func raw(_ field: @autoclosure () -> String, count: Int) throws -> ArraySlice<UInt8> {
        guard count <= remaining else {
            throw malformed(field(), "\(count) bytes, but only \(remaining) are left")
        }
        defer { index += count }
        return bytes[index..<index + count]
    }

    mutating func bytes(_ field: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        let length = try varint(field())
        guard length <= UInt64(remaining) else {
            throw malformed(field(), "length \(length) past the end (\(remaining) bytes left)")
        }
        return try raw(field(), count: Int(length))
    }

    mutating func text(_ field: @autoclosure () -> String) throws -> String {
        let utf8 = try bytes(field())
        guard UTF8Validation.isValid(utf8) else { throw malformed(field(), "invalid UTF-8") }
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func uuid(_ field: @autoclosure () -> String) throws -> SyncDeviceID {
        // raw(count: 16) always yields 16 bytes, so the initializer cannot fail.
        // swift-format-ignore: NeverForceUnwrap
        try SyncDeviceID(bytes: raw(field(), count: 16))!
    }

    /// A value: a tag byte and its payload.
    mutating func value(_ field: @autoclosure () -> String) throws -> SyncValue {
        let tag = try u8(field())
        switch tag {
        case 0x00: return .null
        case 0x01: return .integer(try svarint(field()))
        case 0x02:
            let payload = try raw(field(), count: 8)
            var bits: UInt64 = 0
            for byte in payload.reversed() { bits = bits << 8 | UInt64(byte) }
            return .real(Double(bitPattern: bits))
        case 0x03: return .text(try text(field()))
        case 0x04: return .blob(Array(try bytes(field())))
        case 0x05, 0x06: return .text(UUIDText.format(try raw(field(), count: 16), uppercase: tag == 0x06))
        case 0x40...0x7F: return .integer(Int64(tag - 0x40))
        default: throw malformed(field(), "unknown value tag 0x\(SyncValue.hex(tag))")
        }
    }

    /// A table list: names unique (ignoring ASCII case), columns unique within their table.
    mutating func tables(_ field: String) throws -> [SyncTableColumns] {
        let count = try self.count("\(field)")
        var tables: [SyncTableColumns] = []
        tables.reserveCapacity(count)
        var names = Set<String>()
        for t in 0..<count {
            let name = try text("\(field)[\(t)].name")
            guard names.insert(name.asciiLowercased).inserted else {
                throw malformed("\(field)[\(t)].name", "table '\(name)' is listed twice")
            }
            let columnCount = try self.count("\(field)[\(t)].columns")
            var columns: [String] = []
            columns.reserveCapacity(columnCount)
            var columnNames = Set<String>()
            for c in 0..<columnCount {
                let column = try text("\(field)[\(t)].columns[\(c)]")
                guard columnNames.insert(column.asciiLowercased).inserted else {
                    throw malformed("\(field)[\(t)].columns[\(c)]", "column '\(column)' is listed twice")
                }
                columns.append(column)
            }
            tables.append(SyncTableColumns(name: name, columns: columns))
        }
        return tables
    }

    /// Fails unless every byte was read.
    func end(_ field: String) throws {
        guard remaining == 0 else { throw malformed(field, "\(remaining) trailing bytes after the message") }
    }
}

extension String {
    /// The string with ASCII letters lowercased (how SQLite compares names).
    var asciiLowercased: String {
        String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Validation {
    static func isValid<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard end - i >= length else { return false }
            let b1 = bytes[i + 1]
            guard b1 >= low && b1 <= high else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
