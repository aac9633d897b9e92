#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What identifies a version of a file without reading it: size, modification time (to the
/// nanosecond), inode and device. Two stamps differ when the file was rewritten, replaced or
/// touched, which is what an up-to-date check needs.
///
/// The fields have one width on every platform, whatever the C types are (on Darwin `dev_t`
/// is `Int32` and the time is `st_mtimespec`; on Linux `dev_t` is `UInt64` and the time is
/// `st_mtim`): identifiers are converted by bit pattern, so a negative device id (Darwin
/// gives them to some volumes) is a large number, never a trap.
package struct FileStamp: Codable, Hashable, Sendable {
    /// The size in bytes.
    package var size: Int64
    /// The modification time: seconds since 1970…
    package var mtimeSeconds: Int64
    /// …and nanoseconds within that second.
    package var mtimeNanoseconds: Int64
    /// The inode number.
    package var inode: UInt64
    /// The device id, by bit pattern.
    package var device: UInt64

    /// A stamp with these values.
    package init(size: Int64, mtimeSeconds: Int64, mtimeNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.mtimeSeconds = mtimeSeconds
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.device = device
    }

    /// The stamp of the file at `path` (a symbolic link is followed), or nil when it cannot be
    /// stat'ed (missing, unreadable directory).
    package static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let mtime = info.st_mtimespec
        #else
        let mtime = info.st_mtim
        #endif
        return FileStamp(
            size: Int64(info.st_size),
            mtimeSeconds: Int64(mtime.tv_sec),
            mtimeNanoseconds: Int64(mtime.tv_nsec),
            inode: bitPattern(info.st_ino),
            device: bitPattern(info.st_dev)
        )
    }

    /// True when this file was last modified at or after `reference`'s modification (both
    /// times from the file system's clock), or in the same second when this stamp has no
    /// sub-second part (a file system that keeps whole seconds: HFS+, FAT, some network file
    /// systems). Such a file may change again within the same timestamp tick after it was read,
    /// leaving the same stat data: git's "racily clean" entries.
    package func isModified(atOrAfter reference: FileStamp) -> Bool {
        if mtimeNanoseconds == 0 { return mtimeSeconds >= reference.mtimeSeconds }
        return (mtimeSeconds, mtimeNanoseconds) >= (reference.mtimeSeconds, reference.mtimeNanoseconds)
    }

    /// `value`'s bits as an unsigned 64-bit number, without sign extension: `Int32(-2)` is
    /// `0xFFFF_FFFE`. (`UInt64(value)` traps on a negative value.)
    package static func bitPattern<Value: BinaryInteger>(_ value: Value) -> UInt64 {
        let widened = UInt64(truncatingIfNeeded: value)
        return value.bitWidth >= 64 ? widened : widened & ((1 << UInt64(value.bitWidth)) - 1)
    }
}
