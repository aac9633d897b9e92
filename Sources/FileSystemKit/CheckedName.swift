// Names that come from outside the program (a feed's signed metadata: target paths, hashes, role
// names), checked before they name a file. A string from metadata becomes a file path only
// through these types, so that whatever a key holder signs, no path leaves the directory it is
// joined to: no `..` or `.`, no `/` inside a name, no empty name, no NUL (where the system's
// calls would cut the path), no control character, and nothing longer than a file system takes.

/// One name in a directory, checked: 1 to 255 bytes of UTF-8, neither `.` nor `..`, without `/`,
/// NUL or another control character.
package struct PathComponent: Hashable, Sendable, CustomStringConvertible {
    /// The name.
    package let name: String
    /// The longest name, in bytes of UTF-8 (`NAME_MAX` on Linux and Darwin).
    package static let maximumBytes = 255

    /// `name`, checked.
    ///
    /// - Throws: ``CheckedNameError`` saying what is wrong with it.
    package init(_ name: String) throws {
        let bytes = name.utf8
        guard !bytes.isEmpty else { throw CheckedNameError(name, "is empty") }
        guard name != ".", name != ".." else { throw CheckedNameError(name, "is \(name), a directory, not a name") }
        guard bytes.count <= Self.maximumBytes else {
            throw CheckedNameError(
                name, "is \(bytes.count) bytes long, more than the \(Self.maximumBytes) a name may be")
        }
        if bytes.contains(UInt8(ascii: "/")) { throw CheckedNameError(name, "holds a /") }
        if bytes.contains(0) { throw CheckedNameError(name, "holds a NUL byte") }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw CheckedNameError(name, "holds a control character")
        }
        self.name = name
    }

    package var description: String { name }
}

/// A relative path of checked names, `a/b/c`: at least one name, at most 1024 bytes in all.
package struct RelativePath: Hashable, Sendable, CustomStringConvertible {
    /// The names, outermost first.
    package let components: [PathComponent]
    /// The longest path, in bytes of UTF-8 (`PATH_MAX` on Darwin).
    package static let maximumBytes = 1024

    /// The path `a/b/c`, each name checked (so an empty one, from a leading, trailing or double
    /// `/`, is refused).
    ///
    /// - Throws: ``CheckedNameError`` naming the whole path and what is wrong.
    package init(_ path: String) throws {
        do {
            try self.init(
                path.split(separator: "/", omittingEmptySubsequences: false).map { try PathComponent(String($0)) })
        } catch let error as CheckedNameError {
            throw CheckedNameError(
                path,
                error.value == path ? error.reason : "holds \(error.value.debugDescription), which \(error.reason)")
        }
    }

    /// The path of `components`.
    ///
    /// - Throws: ``CheckedNameError`` when there are none, or the path is too long.
    package init(_ components: [PathComponent]) throws {
        let path = components.map(\.name).joined(separator: "/")
        guard !components.isEmpty else { throw CheckedNameError(path, "is empty") }
        guard path.utf8.count <= Self.maximumBytes else {
            throw CheckedNameError(path, "is \(path.utf8.count) bytes long, more than the \(Self.maximumBytes) allowed")
        }
        self.components = components
    }

    /// `a/b/c`.
    package var string: String { components.map(\.name).joined(separator: "/") }

    package var description: String { string }

    /// The path under a directory's path.
    package func under(_ directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + string
    }
}

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
