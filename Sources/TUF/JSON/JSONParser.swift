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

/// A strict JSON parser (RFC 8259) with hard limits, checked before and while reading.
///
/// It refuses a document longer than `maximumBytes` before looking at it, nesting deeper than
/// `maximumDepth`, duplicate member names, invalid UTF-8 and lone surrogates, and anything after the value.
public struct JSONParser: Sendable {
    /// The longest document accepted, in bytes.
    public var maximumBytes: Int
    /// The deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    /// A parser with these limits.
    public init(maximumBytes: Int = 5_000_000, maximumDepth: Int = 64) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document.
    public func parse(_ data: Data) throws -> JSONValue {
        guard data.count <= maximumBytes else {
            throw JSONParseError(offset: 0, reason: "\(data.count) bytes, more than the limit of \(maximumBytes)")
        }
        return try data.withUnsafeBytes { raw -> JSONValue in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.position == reader.bytes.count else { throw reader.error("data after the JSON value") }
            return value
        }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        for byte in literal.utf8 {
            guard current == byte else { throw error("expected \(literal)") }
            position += 1
        }
        return value
    }

    mutating func readValue(depth: Int) throws -> JSONValue {
        guard let byte = current else { throw error("unexpected end of data") }
        switch byte {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func readObject(depth: Int) throws -> JSONValue {
        guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let keyOffset = position
            let key = try readString()
            guard !object.contains(key) else {
                throw JSONParseError(offset: keyOffset, reason: "duplicate member \"\(key)\"")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            skipWhitespace()
            object[key] = try readValue(depth: depth)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(object)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func readArray(depth: Int) throws -> JSONValue {
        guard depth <= maximumDepth else { throw error("nested deeper than \(maximumDepth)") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func readNumber() throws -> JSONValue {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard readDigits() > 0 else { throw error("expected a digit") }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard readDigits() > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard readDigits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        return .number(text)
    }

    mutating func readDigits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    mutating func readString() throws -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        func flush(_ reader: Reader, upTo end: Int) throws {
            guard runStart < end else { return }
            let run = UnsafeBufferPointer(rebasing: reader.bytes[runStart..<end])
            let text = String(decoding: run, as: UTF8.self)
            guard text.utf8.elementsEqual(run) else {
                throw JSONParseError(offset: runStart, reason: "invalid UTF-8 in a string")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                try flush(self, upTo: position)
                position += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                try flush(self, upTo: position)
                position += 1
                scalars.append(try readEscape())
                runStart = position
                continue
            }
            position += 1
        }
    }

    mutating func readEscape() throws -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try readHex4()
            if (0xD800..<0xDC00).contains(first) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate") }
                position += 2
                let second = try readHex4()
                guard (0xDC00..<0xE000).contains(second) else { throw error("lone surrogate") }
                // A high and a low surrogate always combine into a scalar of U+10000...U+10FFFF.
                // swift-format-ignore: NeverForceUnwrap
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("lone surrogate") }
            return scalar
        default: throw error("invalid escape")
        }
    }

    mutating func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigit(byte) else { throw error("expected 4 hex digits") }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

/// The value of an ASCII hex digit, or nil.
func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}
