/// A PlistBuddy-style key path: `CFBundleVersion`, `:CFBundleVersion`, `Parent:Child:0`.
///
/// Components are separated by `:`; a leading `:` (PlistBuddy's root) is optional. A component
/// made only of digits is an index when the container it applies to is an array, a key when it
/// is a dictionary. `\:` and `\\` write a literal colon or backslash inside a key.
public struct PlistKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The keys and indexes, outermost first.
    public var components: [String]

    /// The path that names the `CFBundleVersion` key of the root dictionary.
    public static let bundleVersion = PlistKeyPath(components: ["CFBundleVersion"])

    public init(components: [String]) {
        self.components = components
    }

    /// Parses `text`; throws when the path is empty or has an empty component (`A::B`).
    public init(parsing text: String) throws {
        var body = Substring(text)
        if body.hasPrefix(":") { body = body.dropFirst() }
        var components: [String] = []
        var current = ""
        var escaping = false
        for character in body {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == ":" {
                components.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        components.append(current)
        if components.contains(where: \.isEmpty) {
            throw VersionStampError(message: "invalid key path '\(text)': key paths look like 'CFBundleVersion' or 'Parent:Child:0', with no empty component")
        }
        self.components = components
    }

    /// The path as written on the command line (`Parent:Child:0`), `:` for the root itself.
    public var description: String {
        if components.isEmpty { return ":" }
        return components.map { component in
            component.replacingBytes(of: "\\", with: "\\\\").replacingBytes(of: ":", with: "\\:")
        }.joined(separator: ":")
    }

    /// The path one level deeper.
    func appending(_ component: String) -> PlistKeyPath {
        PlistKeyPath(components: components + [component])
    }
}

extension String {
    /// Replaces every occurrence of `target` by `replacement`, comparing UTF-8 bytes exactly
    /// (no Unicode normalization, no locale), as a byte-preserving editor must.
    func replacingBytes(of target: String, with replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + needle.count <= bytes.count, bytes[index] == needle[0],
               bytes[index..<(index + needle.count)].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// True when `target` occurs in the string, comparing UTF-8 bytes exactly.
    func containsBytes(of target: String) -> Bool {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return false }
        var utf8 = self.utf8[...]
        while let start = utf8.firstIndex(of: first) {
            if utf8[start...].starts(with: needle) { return true }
            utf8 = utf8[utf8.index(after: start)...]
        }
        return false
    }
}
