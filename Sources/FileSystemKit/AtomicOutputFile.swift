#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch

/// A large output built under a temporary name beside its destination, by this process or by
/// another party (SQLite writes a database there), and renamed into place only when complete:
/// the destination is never seen half-written, and on any failure or kill it is exactly what
/// it was.
///
/// Files, for a destination `DIR/NAME` and a tag `TAG`:
/// - `DIR/.NAME.TAG-XXXXXX`: the temporary (empty at first, `0666` less the umask);
/// - `DIR/.NAME.TAG-XXXXXX.lock`: its sidecar, locked (``SidecarLock``) for as long as the
///   temporary is alive. The temporary itself is never locked: SQLite opens it, and on Darwin
///   a `flock` on it would make SQLite's own locks fail.
///
/// ``commit()`` syncs the temporary (``DurableSync``), renames it over the destination and
/// syncs the directory; ``discard()`` removes it. While the temporary is written,
/// ``startWriteback()`` lets the disk start on what is already there, so that the sync at the
/// end has less to wait for. With `removeOnSignal`, SIGINT, SIGTERM and
/// SIGHUP remove the temporary before the process dies. After a `kill -9` the temporary and its
/// sidecar stay, and ``removeStaleTemporaries(of:tag:companionSuffixes:)`` removes them at the
/// next run: a temporary whose sidecar nobody holds belongs to a writer that is gone, while
/// those of running writers are kept.
package final class AtomicOutputFile {
    /// The final path.
    package let destination: String
    /// The temporary path the content goes to.
    package let temporaryPath: String
    /// The files that may appear beside the temporary while it is written (`-journal`…),
    /// removed with it.
    private let companionPaths: [String]
    /// Held while the temporary is alive; nil once committed or discarded.
    private var liveness: SidecarLock?
    private let removesOnSignal: Bool
    /// The temporary, open from its creation until commit or discard, for ``startWriteback()``.
    /// It is closed only then because closing any descriptor of a file drops every `fcntl` lock
    /// the process holds on it, SQLite's included; ``commit()`` syncs through a descriptor of
    /// its own, opened once the writer is done, so it syncs whatever file the path names then.
    private var writebackDescriptor: Int32
    /// The temporary's size when writeback was last started, and when it was last looked at.
    private var writebackSize: Int64 = 0
    private var writebackChecked: UInt64 = 0
    /// Where writeback is started: submitting a large file's pages takes the caller tens of
    /// milliseconds, which a second core spends instead while the build goes on.
    private let writebackQueue = DispatchQueue(label: "FileSystemKit.AtomicOutputFile.writeback")

    /// The files SQLite may create beside a database it writes (rollback journal, WAL and its
    /// shared-memory index): pass them as `companionSuffixes` when SQLite writes the temporary.
    package static let sqliteCompanionSuffixes = ["-journal", "-wal", "-shm"]

    /// Creates the sidecar (locked) and then the empty temporary beside `destination`.
    ///
    /// - Parameters:
    ///   - tag: Names the temporaries (`.NAME.TAG-XXXXXX`), so that the stale ones can be
    ///     found again.
    ///   - companionSuffixes: Files `TEMPORARY + suffix` removed with the temporary.
    ///   - removeOnSignal: Remove the temporary on SIGINT, SIGTERM and SIGHUP (a signal that is
    ///     ignored, as under `nohup`, stays ignored). For a command-line tool, one output file at
    ///     a time; never in a library an app links.
    /// - Throws: ``FileSystemError`` (`.createTemporary`, naming `destination`) when the
    ///   directory is missing or not writable.
    package init(destination: String, tag: String, companionSuffixes: [String] = [], removeOnSignal: Bool = false)
        throws
    {
        let names = TemporaryName(beside: destination, tag: tag)
        let (id, lock, descriptor) = try Self.createTemporary(names, reportedAs: destination)
        writebackDescriptor = descriptor
        self.destination = destination
        temporaryPath = names.path(id: id)
        companionPaths = companionSuffixes.map { names.path(id: id, suffix: $0) }
        liveness = lock
        removesOnSignal = removeOnSignal
        if removeOnSignal {
            SignalCleanup.install(removing: [temporaryPath] + companionPaths + [lock.path], for: ObjectIdentifier(self))
        }
    }

    deinit { discard() }

    /// Syncs the temporary, renames it over the destination and syncs the directory; then the
    /// sidecar goes. Call it once the writer has closed the temporary (closing a descriptor of
    /// a file drops the process's `fcntl` locks on it, SQLite's included). Does nothing once
    /// committed or discarded.
    ///
    /// - Throws: ``FileSystemError`` naming the destination (`.sync`, `.rename`); the
    ///   temporary is then removed and the destination is as it was.
    package func commit() throws {
        guard let lock = liveness else { return }
        do {
            try DurableSync.synchronize(fileAt: temporaryPath, reportedAs: destination)
            guard rename(temporaryPath, destination) == 0 else {
                throw FileSystemError(.rename, path: destination, code: errno)
            }
        } catch {
            discard()
            throw error
        }
        for companion in companionPaths { unlink(companion) }
        DurableSync.synchronizeDirectory(containing: destination)
        finish(lock)
    }

    /// Asks the system to start writing the temporary's new data to storage now, without waiting
    /// for it, so that the sync in ``commit()`` waits only for what was written after: the
    /// write-behind of bulk writers (PostgreSQL's `backend_flush_after` does the same). While a
    /// build goes on computing (an index, the next table), the disk is busy with what is done.
    ///
    /// Cheap enough to call after every statement: it looks at the file at most every 50 ms
    /// and starts writeback when the file has grown by 4 MiB since the last time. On Linux,
    /// `sync_file_range(SYNC_FILE_RANGE_WRITE)`; elsewhere nothing (Darwin has no such call).
    package func startWriteback() {
        #if os(Linux)
        guard liveness != nil, let syncFileRange = Self.syncFileRange else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let milliseconds = UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
        guard milliseconds >= writebackChecked + 50 else { return }
        writebackChecked = milliseconds
        var info = stat()
        guard fstat(writebackDescriptor, &info) == 0, Int64(info.st_size) >= writebackSize + (4 << 20) else { return }
        writebackSize = Int64(info.st_size)
        let descriptor = writebackDescriptor // open until finish(), which waits for this
        writebackQueue.async { _ = syncFileRange(descriptor, 0, 0, 2) } // SYNC_FILE_RANGE_WRITE
        #endif
    }

    #if os(Linux)
    /// glibc's and musl's `sync_file_range`, which Swift's Glibc module leaves out (it is behind
    /// `_GNU_SOURCE`): looked up once in the process's libraries.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? =
        dlsym(nil, "sync_file_range").map {
            unsafeBitCast($0, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
        }
    #endif

    /// Removes the temporary, its companions and its sidecar (idempotent).
    package func discard() {
        guard let lock = liveness else { return }
        unlink(temporaryPath)
        for companion in companionPaths { unlink(companion) }
        finish(lock)
    }

    private func finish(_ lock: SidecarLock) {
        liveness = nil
        writebackQueue.sync {}
        close(writebackDescriptor)
        if removesOnSignal { SignalCleanup.clear(for: ObjectIdentifier(self)) }
        lock.release()
    }

    /// Removes the temporaries of `destination` marked `tag` (with their companions and
    /// sidecars) whose writer is gone: their sidecar is free, or missing. Those of running
    /// writers are kept. An unreadable directory has nothing this could remove.
    package static func removeStaleTemporaries(of destination: String, tag: String, companionSuffixes: [String] = []) {
        let names = TemporaryName(beside: destination, tag: tag)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: names.directory) else { return }
        let prefix = Array(names.prefix.utf8)
        var ids = Set<String>()
        for entry in entries where entry.utf8.starts(with: prefix) {
            let rest = Array(entry.utf8.dropFirst(prefix.count))
            let id = String(decoding: rest.prefix(TemporaryName.idLength), as: UTF8.self)
            let suffix = String(decoding: rest.dropFirst(TemporaryName.idLength), as: UTF8.self)
            guard TemporaryName.isID(id), suffix.isEmpty || suffix == ".lock" || companionSuffixes.contains(suffix)
            else { continue }
            ids.insert(id)
        }
        for id in ids.sorted() {
            let removeFiles = {
                for suffix in [""] + companionSuffixes { unlink(names.path(id: id, suffix: suffix)) }
            }
            // The sidecar is created before the temporary and removed after it, so a temporary
            // without one was left by a writer that is gone.
            switch try? SidecarLock.attempt(at: names.path(id: id, suffix: ".lock"), creating: .never, waiting: false) {
            case .held(let lock)?:
                removeFiles()
                lock.release()
            case .missing?:
                removeFiles()
            case .busy?, .exists?, nil:
                continue // a running writer's, or nothing can be told: kept
            }
        }
    }

    /// A fresh id whose sidecar this process created and holds, and its empty temporary.
    private static func createTemporary(_ names: TemporaryName, reportedAs destination: String) throws
        -> (String, SidecarLock, Int32)
    {
        for _ in 0..<100 {
            let id = TemporaryName.randomID()
            let attempt: SidecarLock.Attempt
            do {
                attempt = try SidecarLock.attempt(
                    at: names.path(id: id, suffix: ".lock"), creating: .exclusively, waiting: true)
            } catch let error as FileSystemError {
                throw FileSystemError(.createTemporary, path: destination, code: error.code)
            }
            // Taken, or removed by a cleaner between its creation and our lock: another id.
            guard case .held(let lock) = attempt else { continue }
            let descriptor = POSIXFile.open(names.path(id: id), O_WRONLY | O_CREAT | O_EXCL, mode: 0o666)
            guard descriptor >= 0 else {
                let code = errno
                lock.release()
                if code == EEXIST { continue }
                throw FileSystemError(.createTemporary, path: destination, code: code)
            }
            return (id, lock, descriptor)
        }
        throw FileSystemError(.createTemporary, path: destination, code: EEXIST)
    }
}

/// Removal of one output's files when SIGINT, SIGTERM or SIGHUP ends the process: the output
/// registered last (a command-line tool writes one at a time; not thread-safe). The handler
/// may not allocate: the paths are C strings prepared beforehand.
private enum SignalCleanup {
    typealias Handler = @convention(c) (Int32) -> Void

    /// A nil-terminated array of paths to unlink.
    nonisolated(unsafe) static var paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    nonisolated(unsafe) static var previous: [(signal: Int32, handler: Handler?)] = []
    /// The output the paths belong to.
    nonisolated(unsafe) static var owner: ObjectIdentifier?

    static func install(removing files: [String], for output: ObjectIdentifier) {
        if let owner { clear(for: owner) }
        owner = output
        let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: files.count + 1)
        for (index, file) in files.enumerated() { list[index] = strdup(file) }
        list[files.count] = nil
        paths = list
        let handler: Handler = { number in
            if let list = SignalCleanup.paths {
                var index = 0
                while let path = list[index] {
                    unlink(path)
                    index += 1
                }
            }
            signal(number, SIG_DFL)
            raise(number)
        }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let old = signal(number, handler)
            if isIgnored(old) {
                signal(number, old) // under nohup, a hangup must not end the build
            } else {
                previous.append((number, old))
            }
        }
    }

    /// Puts the previous handlers back, unless another output registered since.
    static func clear(for output: ObjectIdentifier) {
        guard owner == output else { return }
        owner = nil
        for (number, handler) in previous { signal(number, handler) }
        previous = []
        guard let list = paths else { return }
        paths = nil
        var index = 0
        while let path = list[index] {
            free(path)
            index += 1
        }
        list.deallocate()
    }

    private static func isIgnored(_ handler: Handler?) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
