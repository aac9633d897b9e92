import Foundation

/// Quoting of SQL identifiers and string literals, written once for every caller.
package enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier: `food` → `"food"`, `a"b` → `"a""b"`.
    package static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a single-quoted SQL string literal: `it's` → `'it''s'`.
    package static func quoteLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
