#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import CSQLite
import EssentialsSupport

/// Quoting of SQL identifiers and string literals, written once for every caller.
package enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier: `food` → `"food"`, `a"b` → `"a""b"`.
    package static func quote(_ name: String) -> String {
        "\"" + name.replacingEvery("\"", with: "\"\"") + "\""
    }

    /// `text` as a single-quoted SQL string literal: `it's` → `'it''s'`.
    package static func quoteLiteral(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "''") + "'"
    }
}

/// Questions about SQL text that SQLite's own tokenizer answers.
package enum SQLText {
    /// True when `word` is an SQL keyword (`sqlite3_keyword_check`), so that an identifier
    /// spelled like it must be quoted.
    package static func isKeyword(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        return utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_keyword_check($0.baseAddress, Int32($0.count)) != 0 }
        }
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
