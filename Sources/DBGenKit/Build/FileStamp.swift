import Foundation

/// What identifies a version of a file without reading it: size, mtime (ns), inode, device.
struct FileStamp: Codable, Hashable, Sendable {
    var size: Int64
    var mtimeSeconds: Int64
    var mtimeNanoseconds: Int64
    var inode: UInt64
    var device: UInt64

    /// The stamp of the file at `path`, or nil when it cannot be stat'ed.
    static func of(_ path: String) -> FileStamp? {
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
