import FileSystemKit
import Foundation

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
        if directory.isEmpty || directory == "." { return LexicalPath.normalized(path) }
        return LexicalPath.normalized((directory as NSString).appendingPathComponent(path))
    }

    /// How to show an absolute path: relative to the current directory when inside it.
    static func display(absolute path: String) -> String {
        let current = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
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
