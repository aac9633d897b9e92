#if !(canImport(FoundationEssentials) && os(Linux))
import Foundation
#endif

/// Trimming without Foundation's `CharacterSet`, which FoundationEssentials does not have (on
/// Apple platforms each is Foundation's `trimmingCharacters(in:)` itself).
extension StringProtocol {
    /// The text without the Unicode white space (`White_Space`: spaces, tabs, line and
    /// paragraph separators, `\n`, `\r`, U+0085…) and U+200B at either end: what
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives, scalar by scalar.
    package func trimmingWhitespaceAndNewlines() -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        trimmingScalars { $0.properties.isWhitespace || $0.value == 0x200B }
        #else
        trimmingCharacters(in: .whitespacesAndNewlines)
        #endif
    }

    /// The text without spaces and tabs (tab, the Unicode space separators `Zs`, and U+200B) at
    /// either end: what `trimmingCharacters(in: .whitespaces)` gives.
    package func trimmingSpacesAndTabs() -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        trimmingScalars { $0.value == 0x09 || $0.value == 0x200B || $0.properties.generalCategory == .spaceSeparator }
        #else
        trimmingCharacters(in: .whitespaces)
        #endif
    }

    /// The text without line breaks (`\n`, `\r`, U+000B, U+000C, U+0085, U+2028, U+2029) at
    /// either end: what `trimmingCharacters(in: .newlines)` gives.
    package func trimmingNewlines() -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        trimmingScalars {
            (0x0A...0x0D).contains($0.value) || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029
        }
        #else
        trimmingCharacters(in: .newlines)
        #endif
    }

    private func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
