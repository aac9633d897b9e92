/// Paths handled as text, without touching the disk (no symbolic link is resolved).
package enum LexicalPath {
    /// `path` with its `.` components, `dir/..` pairs and repeated or trailing slashes removed
    /// (`a/./b/../c` → `a/c`). A `..` above the root of an absolute path is dropped (`/../a` →
    /// `/a`); the leading `..` of a relative path are kept (`../a`); a relative path that comes
    /// to nothing is `.`.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute, parts.isEmpty { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
