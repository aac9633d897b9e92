// Every method this file calls on the VFS below (belowMethods(file).xWrite! and the rest) is
// one SQLite's unix VFS defines at the io version it gives: a missing one is a broken SQLite,
// not input, and stopping there is right.
// swift-format-ignore-file: NeverForceUnwrap

import CSQLite

/// A database file whose writes SQLite's pager makes a page at a time are gathered into runs of
/// up to 64 KiB before they reach the file below (the default VFS's, which writes at most
/// 0x1ffff bytes a call: it masks the size). A bulk build writes each page once, mostly in
/// order (pages spilled from the cache as a table grows, then the sorted pages of each index),
/// so gathering them turns thousands of 4 KiB system calls into a few 64 KiB ones for the same
/// bytes (docs/Performance.md, "Gathered writes", has the figures).
///
/// Nothing else changes: the bytes and their order in the file are the same, and the file below
/// sees every write before anything that could observe it: a read overlapping the gathered run,
/// the file's size, a truncation, a sync, a lock change, a file control, a shared-memory (WAL)
/// call, and closing. Memory mapping is declined (`xFetch` maps nothing, so SQLite reads through
/// `xRead`), since a mapping would show the file without the gathered run.
///
/// A failed write of a run is kept: every later operation fails with it. SQLite ignores what
/// some calls return (a file-control hint, closing), and with `synchronous=OFF` a build never
/// syncs through SQLite, so its owner writes the last run with ``flush(_:)`` and learns of any
/// failure there, before it takes the file for finished.
///
/// The object SQLite allocates (the VFS's `szOsFile`) holds the `sqlite3_file`, a pointer to
/// the run's ``State``, then the file below.
package enum CoalescedWriteFile {
    /// Bytes in front of the file below: the `sqlite3_file` and the state pointer.
    static let headerSize = 2 * MemoryLayout<UnsafeRawPointer>.stride

    /// The gathered run: `length` bytes for the file's offset `start`.
    final class State {
        /// The largest run: 64 KiB, the largest page, and the most the default VFS writes at once.
        static let capacity = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var start: Int64 = 0
        var length = 0
        /// The result of the first failed write of a run (`SQLITE_OK` while none failed).
        var failure = SQLITE_OK

        deinit { buffer.deallocate() }

        /// True when the run and `count` bytes at `offset` share a byte.
        func overlaps(_ offset: Int64, _ count: Int) -> Bool {
            length > 0 && offset < start + Int64(length) && start < offset + Int64(count)
        }
    }

    /// Opens `name` with `open` (the default VFS's `xOpen`, given `vfs`) as the file below
    /// `file`; on failure `file` has no methods, so SQLite does not close it.
    static func open(
        _ open:
            @convention(c) (
                UnsafeMutablePointer<sqlite3_vfs>?, UnsafePointer<CChar>?,
                UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?
            ) -> Int32,
        _ vfs: UnsafeMutablePointer<sqlite3_vfs>?, _ name: UnsafePointer<CChar>?,
        _ file: UnsafeMutablePointer<sqlite3_file>, _ flags: Int32,
        _ outFlags: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        let below = self.below(file)
        below.pointee.pMethods = nil
        let status = open(vfs, name, below, flags, outFlags)
        guard status == SQLITE_OK else {
            if let methods = below.pointee.pMethods { _ = methods.pointee.xClose(below) }
            file.pointee.pMethods = nil
            return status
        }
        stateSlot(file).storeBytes(
            of: UnsafeRawPointer(Unmanaged.passRetained(State()).toOpaque()), as: UnsafeRawPointer.self)
        file.pointee.pMethods = UnsafePointer(methods)
        return SQLITE_OK
    }

    private static func below(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        UnsafeMutableRawPointer(file).advanced(by: headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    /// Where the pointer to the file's ``State`` is kept, right after the `sqlite3_file`.
    private static func stateSlot(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(file).advanced(by: MemoryLayout<UnsafeRawPointer>.stride)
    }

    private static func state(_ file: UnsafeMutablePointer<sqlite3_file>) -> State {
        Unmanaged<State>.fromOpaque(stateSlot(file).load(as: UnsafeRawPointer.self)).takeUnretainedValue()
    }

    /// The methods of the file below.
    private static func belowMethods(_ file: UnsafeMutablePointer<sqlite3_file>) -> sqlite3_io_methods {
        below(file).pointee.pMethods.pointee
    }

    /// The file-control operation that writes the gathered run and returns the result, or the
    /// failure kept from an earlier run (an opcode far from SQLite's own, as custom VFSes use).
    static let flushOperation: Int32 = 0x5348_5901

    /// Writes the gathered run of `schema`'s database file of `connection`, when that file
    /// gathers its writes; throws the failure of that write or of an earlier one.
    package static func flush(_ connection: Connection, schema: String = "main") throws {
        guard let handle = connection.handle else {
            throw SQLiteError(extendedResultCode: .SQLITE_MISUSE, message: "connection is closed")
        }
        let status = sqlite3_file_control(handle, schema, flushOperation, nil)
        guard status == SQLITE_OK || status == SQLITE_NOTFOUND else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status),
                message: "cannot write the database file: \(String(cString: sqlite3_errstr(status)))")
        }
    }

    /// Writes the gathered run to the file below; a failure is kept for every later operation.
    private static func flush(_ file: UnsafeMutablePointer<sqlite3_file>) -> Int32 {
        let run = state(file)
        guard run.failure == SQLITE_OK else { return run.failure }
        guard run.length > 0 else { return SQLITE_OK }
        let count = run.length
        run.length = 0
        run.failure = belowMethods(file).xWrite!(below(file), run.buffer, Int32(count), run.start)
        return run.failure
    }

    /// Flushes, then returns `then()` (an operation of the file below), or the flush's failure.
    private static func flushed(
        _ file: UnsafeMutablePointer<sqlite3_file>?, _ then: (UnsafeMutablePointer<sqlite3_file>) -> Int32
    ) -> Int32 {
        guard let file else { return SQLITE_MISUSE }
        let status = flush(file)
        return status == SQLITE_OK ? then(file) : status
    }

    /// Flushes, then runs `release` (an unlock or unmap of the file below) even when the flush
    /// failed, so that a failed build holds nothing; returns the flush's failure, else `release`'s result.
    private static func released(
        _ file: UnsafeMutablePointer<sqlite3_file>?, _ release: (UnsafeMutablePointer<sqlite3_file>) -> Int32
    ) -> Int32 {
        guard let file else { return SQLITE_MISUSE }
        let status = flush(file)
        let released = release(file)
        return status == SQLITE_OK ? released : status
    }

    private static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(
            to: sqlite3_io_methods(
                iVersion: 3,
                xClose: { file in
                    guard let file else { return SQLITE_MISUSE }
                    let flushed = flush(file)
                    let closed = belowMethods(file).xClose!(below(file))
                    Unmanaged.passUnretained(state(file)).release()
                    return flushed != SQLITE_OK ? flushed : closed
                },
                xRead: { file, data, amount, offset in
                    guard let file else { return SQLITE_MISUSE }
                    if state(file).overlaps(offset, Int(amount)) {
                        let status = flush(file)
                        guard status == SQLITE_OK else { return status }
                    }
                    return belowMethods(file).xRead!(below(file), data, amount, offset)
                },
                xWrite: { file, data, amount, offset in
                    guard let file, let data else { return SQLITE_MISUSE }
                    let run = state(file), count = Int(amount)
                    guard run.failure == SQLITE_OK else { return run.failure }
                    let end = run.start + Int64(run.length)
                    if run.length > 0, offset >= run.start, offset + Int64(count) <= end {
                        // A page of the run written again: replaced in place.
                        (run.buffer + Int(offset - run.start)).copyMemory(from: data, byteCount: count)
                        return SQLITE_OK
                    }
                    if run.length > 0, offset == end, run.length + count <= State.capacity {
                        (run.buffer + run.length).copyMemory(from: data, byteCount: count)
                        run.length += count
                        return SQLITE_OK
                    }
                    let status = flush(file)
                    guard status == SQLITE_OK else { return status }
                    guard count <= State.capacity else {
                        return belowMethods(file).xWrite!(below(file), data, amount, offset)
                    }
                    run.buffer.copyMemory(from: data, byteCount: count)
                    run.start = offset
                    run.length = count
                    return SQLITE_OK
                },
                xTruncate: { file, size in flushed(file) { belowMethods($0).xTruncate!(below($0), size) } },
                xSync: { file, flags in flushed(file) { belowMethods($0).xSync!(below($0), flags) } },
                xFileSize: { file, size in flushed(file) { belowMethods($0).xFileSize!(below($0), size) } },
                xLock: { file, lock in flushed(file) { belowMethods($0).xLock!(below($0), lock) } },
                xUnlock: { file, lock in released(file) { belowMethods($0).xUnlock!(below($0), lock) } },
                xCheckReservedLock: { file, out in
                    flushed(file) { belowMethods($0).xCheckReservedLock!(below($0), out) }
                },
                xFileControl: { file, operation, argument in
                    guard operation != flushOperation else { return file.map { flush($0) } ?? SQLITE_MISUSE }
                    return flushed(file) { belowMethods($0).xFileControl!(below($0), operation, argument) }
                },
                xSectorSize: { file in file.map { belowMethods($0).xSectorSize!(below($0)) } ?? 0 },
                xDeviceCharacteristics: { file in file.map { belowMethods($0).xDeviceCharacteristics!(below($0)) } ?? 0
                },
                xShmMap: { file, region, size, extend, pointer in
                    flushed(file) { file in
                        guard let map = belowMethods(file).xShmMap else { return SQLITE_IOERR }
                        return map(below(file), region, size, extend, pointer)
                    }
                },
                xShmLock: { file, offset, count, flags in
                    flushed(file) { file in
                        guard let lock = belowMethods(file).xShmLock else { return SQLITE_IOERR }
                        return lock(below(file), offset, count, flags)
                    }
                },
                xShmBarrier: { file in
                    guard let file else { return }
                    _ = flush(file)
                    belowMethods(file).xShmBarrier?(below(file))
                },
                xShmUnmap: { file, delete in
                    released(file) { file in belowMethods(file).xShmUnmap?(below(file), delete) ?? SQLITE_OK }
                },
                xFetch: { _, _, _, pointer in
                    pointer?.pointee = nil // no mapping: SQLite reads through xRead
                    return SQLITE_OK
                },
                xUnfetch: { file, offset, pointer in
                    file.map { belowMethods($0).xUnfetch?(below($0), offset, pointer) ?? SQLITE_OK } ?? SQLITE_OK
                }
            ))
        return methods
    }()
}
