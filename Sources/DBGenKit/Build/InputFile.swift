import FileSystemKit
import Foundation

/// A file read by a build (the schema script, an included script, a CSV file): where it is,
/// how to show it to the user, and its identity when it was read (for the up-to-date check).
struct InputFile: Codable, Hashable, Sendable {
    /// Absolute, standardized path.
    var path: String
    /// The path as the user would find it (relative to the current directory when given relatively).
    var displayPath: String
    var stamp: FileStamp?

    init(path: String, displayPath: String, stamp: FileStamp?) {
        self.path = path
        self.displayPath = displayPath
        self.stamp = stamp
    }
}

extension Array where Element == InputFile {
    /// The inputs that existed when they were read: what a depfile and the summary list
    /// (make stops at a prerequisite that does not exist). A file `readfile()` looked for and
    /// did not find stays in the fingerprint only, so its appearing makes the build run.
    var existing: [InputFile] { filter { $0.stamp != nil } }
}

/// Paths as dbgen resolves and shows them.
enum PathResolution {
    /// `path` made absolute against `directory` (absolute paths kept), standardized.
    static func absolute(_ path: String, relativeTo directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// How to show `path` named inside a script whose directory is shown as `displayDirectory`
    /// (`""` or `.` for the current directory).
    static func display(_ path: String, inDisplayDirectory directory: String) -> String {
        if path.hasPrefix("/") { return path }
        if directory.isEmpty || directory == "." { return normalized(path) }
        return normalized((directory as NSString).appendingPathComponent(path))
    }

    /// How to show an absolute path: relative to the current directory when inside it.
    static func display(absolute path: String) -> String {
        let current = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }

    /// Removes `.` components and `dir/..` pairs from a path, lexically (`a/./b/../c` → `a/c`).
    static func normalized(_ path: String) -> String {
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

    static var currentDirectory: String { FileManager.default.currentDirectoryPath }

    /// True when something that is not a directory is at `path` (following links): a file a
    /// build can read.
    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// True when a directory is at `path` (following links).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
