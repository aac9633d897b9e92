#if !(canImport(FoundationEssentials) && os(Linux))
import Foundation
#endif

/// Searching text without Foundation's `range(of:options:)`, which FoundationEssentials does not
/// have (the standard library's `firstRange(of:)` needs macOS 13 and iOS 16). On Apple platforms
/// each is the Foundation API it names.
extension StringProtocol {
    /// The first occurrence of `target`, compared character by character (a character is a
    /// grapheme cluster, so `/` does not match the start of `/` + a combining accent); nil when
    /// there is none or `target` is empty.
    package func range(ofText target: some StringProtocol) -> Range<Index>? {
        #if canImport(FoundationEssentials) && os(Linux)
        guard let first = target.first else { return nil }
        var start = startIndex
        while let candidate = self[start...].firstIndex(of: first) {
            var here = candidate
            var matched = true
            for character in target {
                guard here < endIndex, self[here] == character else {
                    matched = false
                    break
                }
                here = index(after: here)
            }
            if matched { return candidate..<here }
            start = index(after: candidate)
        }
        return nil
        #else
        return range(of: target)
        #endif
    }

    /// True when the text begins with `prefix`, ASCII letters compared without case (as SQLite
    /// compares keywords): `create virtual` begins with `CREATE VIRTUAL`.
    package func hasPrefixIgnoringASCIICase(_ prefix: some StringProtocol) -> Bool {
        #if canImport(FoundationEssentials) && os(Linux)
        func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        var bytes = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), folded(byte) == folded(expected) else { return false }
        }
        return true
        #else
        return range(of: prefix, options: [.caseInsensitive, .anchored]) != nil
        #endif
    }
}

extension StringProtocol {
    /// The text with each `%XX` (two hexadecimal digits) replaced by that byte: nil when a `%`
    /// is not followed by two hexadecimal digits or the bytes are not UTF-8, as Foundation's
    /// `removingPercentEncoding`.
    package var percentDecoded: String? {
        #if canImport(FoundationEssentials) && os(Linux)
        func hexValue(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case let digit? where (0x30...0x39).contains(digit): return digit - 0x30
            case let letter? where (0x41...0x46).contains(letter): return letter - 0x41 + 10
            case let letter? where (0x61...0x66).contains(letter): return letter - 0x61 + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = hexValue(iterator.next()), let low = hexValue(iterator.next()) else { return nil }
            bytes.append(high << 4 | low)
        }
        var scalars = String.UnicodeScalarView()
        var decoder = UTF8()
        var input = bytes.makeIterator()
        while true {
            switch decoder.decode(&input) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
        #else
        return removingPercentEncoding
        #endif
    }
}

extension StringProtocol {
    /// The last occurrence of `target`, compared character by character (see
    /// ``range(ofText:)``): `range(of:options: .backwards)`.
    package func range(ofLastText target: some StringProtocol) -> Range<Index>? {
        #if canImport(FoundationEssentials) && os(Linux)
        var found: Range<Index>?
        var start = startIndex
        while start < endIndex, let next = self[start...].range(ofText: target) {
            found = next
            start = index(after: next.lowerBound)
        }
        return found
        #else
        return range(of: target, options: .backwards)
        #endif
    }

    /// The text with every UTF-8 byte that may not stand in a URL's path percent-encoded (`%2F`
    /// style, upper case): what `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)`
    /// gives (letters, digits and `-._~!$&'()*+,;=:@/` stay).
    package var percentEncodedForURLPath: String {
        #if canImport(FoundationEssentials) && os(Linux)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in utf8 {
            if allowed.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
        #else
        return addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String(self)
        #endif
    }
}
