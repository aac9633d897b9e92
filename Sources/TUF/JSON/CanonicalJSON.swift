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

/// The canonical JSON that TUF signs: OLPC canonical JSON as securesystemslib's `encode_canonical` writes it.
///
/// Members sorted by name (by code point), no whitespace, strings escaping only `"` and `\` and otherwise
/// written as raw UTF-8, integers only (a fraction or an exponent cannot be encoded), no other escapes.
public enum CanonicalJSON {
    /// Why a value has no canonical form.
    public struct EncodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The number that cannot be encoded.
        public let number: String

        /// The error for a number.
        public init(number: String) { self.number = number }

        public var description: String { "canonical JSON has no form for the number \(number)" }
    }

    /// The canonical bytes of a value.
    public static func encode(_ value: JSONValue) throws -> Data {
        var output = Data()
        try write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout Data) throws {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): output.append(contentsOf: String(number).utf8)
        case .number(let text): output.append(contentsOf: try integerText(text).utf8)
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            let sorted = object.members.sorted {
                $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars)
            }
            for (index, member) in sorted.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                try write(member.value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// An integer beyond 64 bits, written as Python writes an int: no sign on zero.
    private static func integerText(_ text: String) throws -> String {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw EncodingError(number: text)
        }
        let trimmed = digits.drop { $0 == "0" }
        if trimmed.isEmpty { return "0" }
        return (text.hasPrefix("-") ? "-" : "") + trimmed
    }

    private static func writeString(_ string: String, to output: inout Data) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { output.append(UInt8(ascii: "\\")) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }
}
