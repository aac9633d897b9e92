#if !(canImport(FoundationEssentials) && os(Linux))
import Foundation
#endif

/// Replacement without Foundation's `replacingOccurrences(of:with:)`, which FoundationEssentials
/// does not have (the standard library's `replacing(_:with:)` needs macOS 13 and iOS 16); on
/// Apple platforms it is `replacingOccurrences(of:with:)` itself.
extension StringProtocol {
    /// The text with every occurrence of the bytes of `target` replaced by `replacement`,
    /// left to right, none overlapping: SQL's quote doubling is `replacingEvery("'", with: "''")`.
    /// Matches are of UTF-8 bytes, so a `"` followed by a combining accent is still a `"`, as
    /// SQLite's tokenizer sees it.
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        let pattern = Array(target.utf8)
        guard let first = pattern.first else { return String(self) }
        let bytes = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == first, index + pattern.count <= bytes.count,
                bytes[index..<index + pattern.count].elementsEqual(pattern)
            {
                result.append(contentsOf: replacement.utf8)
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
        #else
        return replacingOccurrences(of: target, with: replacement)
        #endif
    }
}
