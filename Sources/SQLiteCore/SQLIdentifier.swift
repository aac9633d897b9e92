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
import CSQLite
import EssentialsSupport

/// Quoting of SQL identifiers and string literals, written once for every caller.
package enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier: `food` → `"food"`, `a"b` → `"a""b"`.
    package static func quote(_ name: String) -> String {
        "\"" + doubling("\"", in: name) + "\""
    }

    /// `text` as a single-quoted SQL string literal: `it's` → `'it''s'`.
    package static func quoteLiteral(_ text: String) -> String {
        "'" + doubling("'", in: text) + "'"
    }

    /// `text` with every `mark` doubled, scalar by scalar, as SQLite reads quoted text. Not
    /// Foundation's `replacingOccurrences`, which compares grapheme clusters: a quote followed
    /// by a combining mark (`"\u{301}`) is no quote there, would be left single, and would end
    /// the quoted name early, letting the rest of the name be read as SQL.
    package static func doubling(_ mark: Unicode.Scalar, in text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(scalar)
            if scalar == mark { result.append(scalar) }
        }
        return String(result)
    }
}

extension SQLIdentifier {
    /// `name` as it can appear in SQL: bare when it is a plain identifier (letters, digits,
    /// underscores, not starting with a digit, not a keyword), else double-quoted.
    package static func quoteIfNeeded(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, !(48...57).contains(first) else { return quote(name) }
        let plain = bytes.allSatisfy {
            ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95
        }
        return plain && !SQLText.isKeyword(name) ? name : quote(name)
    }
}
