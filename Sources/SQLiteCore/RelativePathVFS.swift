import CSQLite
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

/// A VFS that is the default one in every respect but one: a relative database file name
/// (in `ATTACH 'other.db'`, say) is resolved against a directory its owner chooses instead of
/// the process's working directory. Open a connection with ``vfsName`` in its URI
/// (`vfs=NAME`); databases it attaches use the same VFS.
///
/// With `coalescingWrites`, the first main database it opens (the one the connection was
/// opened on) gathers its page writes into larger ones (``CoalescedWriteFile``).
///
/// Each instance registers its own VFS; it is unregistered when the instance is released,
/// so keep the instance alive until every connection using it is closed.
package final class RelativePathVFS {
    /// The registered name, for the `vfs=` URI parameter.
    package let vfsName: String
    /// The directory relative file names resolve against.
    package var baseDirectory: String

    private let vfs: UnsafeMutablePointer<sqlite3_vfs>
    /// The instance, stored right after the `sqlite3_vfs` (whose `pAppData` belongs to the
    /// default VFS's own code).
    private let storage: UnsafeMutableRawPointer
    private let defaultFullPathname:
        @convention(c) (
            UnsafeMutablePointer<sqlite3_vfs>?, UnsafePointer<CChar>?,
            Int32, UnsafeMutablePointer<CChar>?
        ) -> Int32
    private let defaultOpen:
        @convention(c) (
            UnsafeMutablePointer<sqlite3_vfs>?, UnsafePointer<CChar>?,
            UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?
        ) -> Int32
    /// True until the main database to coalesce has been opened.
    private var coalescesNextMainDatabase: Bool

    private static let counter = Counter()

    /// Registers a VFS resolving relative names against `baseDirectory`, gathering the writes of
    /// the first main database it opens when `coalescingWrites`.
    package init(baseDirectory: String, coalescingWrites: Bool = false) throws {
        guard let base = sqlite3_vfs_find(nil), let fullPathname = base.pointee.xFullPathname,
            let open = base.pointee.xOpen
        else {
            throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no default VFS")
        }
        self.baseDirectory = baseDirectory
        vfsName = "shipyard-relative-\(Self.counter.next())"
        defaultFullPathname = fullPathname
        defaultOpen = open
        coalescesNextMainDatabase = coalescingWrites
        let stride = MemoryLayout<sqlite3_vfs>.stride
        storage = .allocate(
            byteCount: stride + MemoryLayout<UnsafeRawPointer>.stride,
            alignment: MemoryLayout<sqlite3_vfs>.alignment)
        vfs = storage.bindMemory(to: sqlite3_vfs.self, capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(vfsName))
        vfs.pointee.xFullPathname = { vfs, name, size, output in
            guard let vfs else { return SQLITE_ERROR }
            return RelativePathVFS.owner(of: vfs).fullPathname(vfs, name, size, output)
        }
        vfs.pointee.szOsFile += Int32(CoalescedWriteFile.headerSize)
        vfs.pointee.xOpen = { vfs, name, file, flags, outFlags in
            guard let vfs, let file else { return SQLITE_MISUSE }
            return RelativePathVFS.owner(of: vfs).open(vfs, name, file, flags, outFlags)
        }
        storage.advanced(by: stride).storeBytes(
            of: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()),
            as: UnsafeRawPointer.self)
        let status = sqlite3_vfs_register(vfs, 0)
        guard status == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status), message: "cannot register the VFS \(vfsName)")
        }
    }

    deinit {
        sqlite3_vfs_unregister(vfs)
        free(UnsafeMutableRawPointer(mutating: vfs.pointee.zName))
        storage.deallocate()
    }

    /// The instance whose VFS `vfs` is (its pointer is stored right after the `sqlite3_vfs`).
    private static func owner(of vfs: UnsafeMutablePointer<sqlite3_vfs>) -> RelativePathVFS {
        let owner = UnsafeRawPointer(vfs).advanced(by: MemoryLayout<sqlite3_vfs>.stride).load(as: UnsafeRawPointer.self)
        return Unmanaged<RelativePathVFS>.fromOpaque(owner).takeUnretainedValue()
    }

    private func open(
        _ vfs: UnsafeMutablePointer<sqlite3_vfs>, _ name: UnsafePointer<CChar>?,
        _ file: UnsafeMutablePointer<sqlite3_file>,
        _ flags: Int32, _ outFlags: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        guard coalescesNextMainDatabase, flags & SQLITE_OPEN_MAIN_DB != 0 else {
            return defaultOpen(vfs, name, file, flags, outFlags)
        }
        coalescesNextMainDatabase = false
        return CoalescedWriteFile.open(defaultOpen, vfs, name, file, flags, outFlags)
    }

    private func fullPathname(
        _ vfs: UnsafeMutablePointer<sqlite3_vfs>, _ name: UnsafePointer<CChar>?, _ size: Int32,
        _ output: UnsafeMutablePointer<CChar>?
    ) -> Int32 {
        guard let name, name.pointee != 0, name.pointee != 0x2F /* "/" */ else {
            return defaultFullPathname(vfs, name, size, output)
        }
        let joined = (baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/") + String(cString: name)
        return joined.withCString { defaultFullPathname(vfs, $0, size, output) }
    }

    /// Unique names within the process.
    private final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
