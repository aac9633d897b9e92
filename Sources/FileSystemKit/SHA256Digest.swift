/// A SHA-256 digest: 64 hexadecimal digits (either case given, lowercase kept). Its text is a
/// ``PathComponent``, so it may name a file.
package struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 64 lowercase hexadecimal digits.
    package let hex: String

    /// `text`, checked.
    ///
    /// - Throws: ``CheckedNameError`` when it is not 64 hexadecimal digits.
    package init(_ text: String) throws {
        let bytes = text.utf8
        guard bytes.count == 64, bytes.allSatisfy({ Self.isHexDigit($0) }) else {
            throw CheckedNameError(text, "is not a SHA-256: 64 hexadecimal digits")
        }
        hex = text.lowercased()
    }

    /// The file name of the digest, followed by `suffix` (`.partial`, `.inflated`…).
    package func fileName(_ suffix: String = "") throws -> PathComponent { try PathComponent(hex + suffix) }

    package var description: String { hex }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
