import Foundation

/// A file read by a build (the schema script, an included script, a CSV file): where it is,
/// how to show it to the user, and its identity when it was read (for the up-to-date check).
public struct InputFile: Codable, Hashable, Sendable {
    /// Absolute, standardized path.
    public var path: String
    /// The path as the user would find it (relative to the current directory when given relatively).
    public var displayPath: String
    public var stamp: FileStamp?

    public init(path: String, displayPath: String, stamp: FileStamp?) {
        self.path = path
        self.displayPath = displayPath
        self.stamp = stamp
    }
}

/// What identifies a version of a file without reading it: size, mtime (ns), inode, device.
public struct FileStamp: Codable, Hashable, Sendable {
    public var size: Int64
    public var mtimeSeconds: Int64
    public var mtimeNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64

    /// The stamp of the file at `path`, or nil when it cannot be stat'ed.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if os(Linux)
        let mtime = info.st_mtim
        #else
        let mtime = info.st_mtimespec
        #endif
        return FileStamp(
            size: Int64(info.st_size),
            mtimeSeconds: Int64(mtime.tv_sec),
            mtimeNanoseconds: Int64(mtime.tv_nsec),
            inode: UInt64(info.st_ino),
            device: UInt64(info.st_dev)
        )
    }
}

/// Paths as dbgen resolves and shows them.
enum PathResolution {
    /// `path` made absolute against `directory` (absolute paths kept), standardized.
    static func absolute(_ path: String, relativeTo directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// How to show `path` named inside a script shown as `scriptDisplayPath`.
    static func display(_ path: String, namedIn scriptDisplayPath: String) -> String {
        if path.hasPrefix("/") { return path }
        let directory = (scriptDisplayPath as NSString).deletingLastPathComponent
        if directory.isEmpty || directory == "." { return normalized(path) }
        return normalized((directory as NSString).appendingPathComponent(path))
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
}
