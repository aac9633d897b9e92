/// The warnings `.import` can give once per row, as sqlite3 does: a file whose every line
/// ends with the separator (TPC-H's, many exports) has one per row.
public enum ImportWarningKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// `expected 16 columns but found 3 - filling the rest with NULL`.
    case missingFields = "missing-fields"
    /// `expected 16 columns but found 17 - extras ignored`.
    case extraFields = "extra-fields"
    /// `unescaped " character`.
    case unescapedQuote = "unescaped-quote"
}
