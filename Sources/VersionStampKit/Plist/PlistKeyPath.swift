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

    /// The path made of `components` as they are (no parsing, no escapes).
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
            throw VersionStampError(
                .invalidKeyPath,
                message:
                    "invalid key path '\(text)': key paths look like 'CFBundleVersion' or 'Parent:Child:0', with no empty component"
            )
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
