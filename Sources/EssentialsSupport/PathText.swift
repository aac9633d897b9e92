#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

/// NSString's path API (`lastPathComponent`, `appendingPathComponent`, `standardizingPath`…),
/// which FoundationEssentials does not have, for the libraries that name files by path text.
///
/// On Apple platforms each function is NSString's own. Elsewhere it is written here with the
/// results of swift-corelibs-foundation's NSString, the Foundation these tools linked on Linux
/// before (EssentialsSupportTests compares the two on every case it knows, symbolic links and
/// `~` included): so a path dbgen shows, records in a depfile or compares stays as it was.
package enum PathText {
    /// The last component: `/a/b.txt` → `b.txt`, `/a/b/` → `b`, `/` → `/`, `` → ``.
    package static func lastComponent(_ path: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        let fixed = fixingSlashes(path)
        guard fixed.utf16.count > 1 else { return fixed }
        return String(fixed[startOfLastComponent(fixed)...])
        #else
        return (path as NSString).lastPathComponent
        #endif
    }

    /// The path without its last component: `/a/b.txt` → `/a`, `/a` → `/`, `b` → ``.
    package static func deletingLastComponent(_ path: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        let fixed = fixingSlashes(path)
        guard fixed != "/", !fixed.isEmpty else { return fixed }
        let start = startOfLastComponent(fixed)
        if start == fixed.startIndex { return "" }
        if start == fixed.index(after: fixed.startIndex) { return "/" }
        return String(fixed[..<fixed.index(before: start)])
        #else
        return (path as NSString).deletingLastPathComponent
        #endif
    }

    /// `component` appended to `path` with one `/` between them (none added when `path` ends in
    /// one); either one empty gives the other.
    package static func appending(_ component: String, to path: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
        #else
        return (path as NSString).appendingPathComponent(component)
        #endif
    }

    /// The path without the extension of its last component: `a/b.tar.gz` → `a/b.tar`;
    /// `.profile` and `..` have none.
    package static func deletingExtension(_ path: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        let fixed = fixingSlashes(path)
        guard fixed.utf16.count > 1, let start = startOfExtension(fixed) else { return fixed }
        return String(fixed[..<fixed.index(before: start)])
        #else
        return (path as NSString).deletingPathExtension
        #endif
    }

    /// `~` expanded, `.`, empty components and (in an absolute path) `..` removed, and every
    /// symbolic link met on the way resolved: NSString's `standardizingPath`.
    package static func standardized(_ path: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        let resolved = resolvingSymlinks(expandingTilde(path))
        return removingPrefix("/var/automount", ifTheRestExists: resolved) ?? resolved
        #else
        return (path as NSString).standardizingPath
        #endif
    }

    /// The path with each component that is a symbolic link replaced by its destination, `.`
    /// and empty components removed and, in an absolute path, `..` applied: NSString's
    /// `resolvingSymlinksInPath`.
    package static func resolvingSymlinks(_ path: String) -> String {
        #if canImport(FoundationEssentials) && os(Linux)
        var components = self.components(path)
        guard !components.isEmpty else { return path }
        if components.count > 1, components.last == "/" { components.removeLast() }
        let isAbsolute = path.hasPrefix("/") || path.hasPrefix("~")
        var resolved = components.removeFirst()
        for component in components {
            switch component {
            case "", ".":
                continue
            case ".." where isAbsolute:
                resolved = deletingLastComponent(resolved)
            default:
                resolved = appending(component, to: resolved)
                if let destination = symbolicLinkDestination(resolved) { resolved = destination }
            }
        }
        return removingPrefix("/private", ifTheRestExists: resolved) ?? resolved
        #else
        return (path as NSString).resolvingSymlinksInPath
        #endif
    }

    #if canImport(FoundationEssentials) && os(Linux)
    /// Runs of `/` made one, and one trailing `/` removed (`/` itself kept).
    private static func fixingSlashes(_ path: String, compress: Bool = true) -> String {
        guard path != "/" else { return path }
        var result = ""
        var previousWasSlash = false
        for character in path {
            let isSlash = character == "/"
            if !(compress && isSlash && previousWasSlash) { result.append(character) }
            previousWasSlash = isSlash
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// Where the last component of `path` (no trailing `/`) begins.
    private static func startOfLastComponent(_ path: String) -> String.Index {
        path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    }

    /// Where the extension of the last component begins (after its last `.`); nil when it has
    /// none: no `.`, a leading `.` (a hidden file) or the component `..`.
    private static func startOfExtension(_ path: String) -> String.Index? {
        let start = startOfLastComponent(path)
        let name = path[start...]
        guard name != "..", let dot = name.lastIndex(of: "."), dot != start else { return nil }
        return path.index(after: dot)
    }

    /// `/` first for an absolute path, then the non-empty components, then `/` again when the
    /// path ends with one (and is longer than it).
    private static func components(_ path: String) -> [String] {
        guard !path.isEmpty else { return [] }
        var result = path.hasPrefix("/") ? ["/"] : []
        result += path.split(separator: "/").map(String.init)
        if path.utf16.count > 1, path.hasSuffix("/") { result.append("/") }
        return result
    }

    /// `~` or `~user` at the start replaced by that home directory; the path with a trailing
    /// `/` removed when the user has none.
    private static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        let end = path.firstIndex(of: "/") ?? path.endIndex
        let user = String(path[path.index(after: path.startIndex)..<end])
        guard let home = homeDirectory(ofUser: user.isEmpty ? nil : user) else {
            return fixingSlashes(path, compress: false)
        }
        return fixingSlashes(home + path[end...], compress: false)
    }

    /// `HOME` for the current user when set, else the password database's entry.
    private static func homeDirectory(ofUser user: String?) -> String? {
        if user == nil, let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            return home
        }
        guard let entry = user.map({ getpwnam($0) }) ?? getpwuid(getuid()), let directory = entry.pointee.pw_dir else {
            return nil
        }
        return String(cString: directory)
    }

    /// What the symbolic link at `path` points to, as swift-corelibs-foundation resolves it:
    /// its destination canonicalized by `realpath(3)`, which takes a relative destination from
    /// the current directory (not the link's); nil when `path` is not a link or that fails.
    private static func symbolicLinkDestination(_ path: String) -> String? {
        guard let destination = readLink(path), let resolved = realpath(destination, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `readlink(2)` of `path`, nil when it is not a symbolic link.
    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` without `prefix` when something exists at what is left.
    private static func removingPrefix(_ prefix: String, ifTheRestExists path: String) -> String? {
        guard path != prefix, path.hasPrefix(prefix) else { return nil }
        let rest = String(path.dropFirst(prefix.count))
        return access(rest, F_OK) == 0 ? rest : nil
    }
    #endif
}
