// Names that come from outside the program (a feed's signed metadata: target paths, hashes, role
// names), checked before they name a file: ``PathComponent``, ``RelativePath`` and
// ``SHA256Digest``. A string from metadata becomes a file path only through these types, so
// that whatever a key holder signs, no path leaves the directory it is joined to: no `..` or
// `.`, no `/` inside a name, no empty name, no NUL (where the system's calls would cut the
// path), no control character, and nothing longer than a file system takes.

/// A name or path refused: the value (shown escaped, as it may hold anything) and what is wrong.
package struct CheckedNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value refused.
    package let value: String
    /// What is wrong with it.
    package let reason: String

    package init(_ value: String, _ reason: String) {
        self.value = value
        self.reason = reason
    }

    /// `"VALUE" REASON`, the value escaped and cut to 100 characters.
    package var description: String {
        let shown = value.count > 100 ? String(value.prefix(100)) + "…" : value
        return "\(shown.debugDescription) \(reason)"
    }
}
