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

/// The release version a tag names: `v7.8.0` → `7.8.0`, `release-2.1-rc1` → `2.1` with the
/// prerelease `rc1`, `v2.0.0-beta.1` → `2.0.0` with `beta.1`.
///
/// The tag's leading non-digits (a prefix such as `v` or `release-`) are dropped; the numeric
/// core is the first one to three dot-separated integers that follow, as written (leading zeros
/// kept). What follows the core, without one leading `-` or `.`, is the prerelease (empty for
/// a plain release). A tag without any digit names no version.
public struct ReleaseVersion: Equatable, Sendable {
    /// The numeric core: one to three dot-separated integers (`7.8.0`), what `{version}` renders.
    public var version: String
    /// What follows the core without its leading `-` or `.` (`beta.1`), what `{prerelease}`
    /// renders; empty for a release.
    public var prerelease: String

    /// The version `tag` names; nil when it holds no digit.
    public init?(tag: String) {
        let characters = Array(tag.unicodeScalars)
        guard let start = characters.firstIndex(where: Self.isDigit) else { return nil }
        var end = start
        var components = 0
        while components < 3 {
            var cursor = end
            if components > 0 {
                // Another component only when a '.' is followed by a digit.
                guard cursor + 1 < characters.count, characters[cursor] == ".", Self.isDigit(characters[cursor + 1])
                else { break }
                cursor += 1
            }
            while cursor < characters.count, Self.isDigit(characters[cursor]) { cursor += 1 }
            end = cursor
            components += 1
        }
        var rest = characters[end...]
        if let first = rest.first, first == "-" || first == "." { rest = rest.dropFirst() }
        version = Self.string(characters[start..<end])
        prerelease = Self.string(rest)
    }

    /// Only ASCII digits count: a version is read by tools that know no other.
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
