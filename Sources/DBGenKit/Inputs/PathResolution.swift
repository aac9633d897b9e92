import FileSystemKit
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
import EssentialsSupport

/// Paths as dbgen resolves and shows them.
enum PathResolution {
    /// `path` made absolute against `directory` (absolute paths kept), standardized.
    static func absolute(_ path: String, relativeTo directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : PathText.appending(path, to: directory)
        return PathText.standardized(joined)
    }

    /// How to show `path` named inside a script whose directory is shown as `displayDirectory`
    /// (`""` or `.` for the current directory).
    static func display(_ path: String, inDisplayDirectory directory: String) -> String {
        if path.hasPrefix("/") { return path }
        if directory.isEmpty || directory == "." { return LexicalPath.normalized(path) }
        return LexicalPath.normalized(PathText.appending(path, to: directory))
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
        FileManager.default.isDirectory(atPath: path) == false
    }

    /// True when a directory is at `path` (following links).
    static func isDirectory(_ path: String) -> Bool {
        FileManager.default.isDirectory(atPath: path) == true
    }
}
