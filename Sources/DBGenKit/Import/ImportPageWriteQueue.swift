import EssentialsSupport
import SQLiteCore

/// Writes the runs of pages ``ImportTableTreeWriter`` lays out to the borrowed file on a
/// thread of its own, in the order they come, so that laying out the next run goes on while
/// the system copies the last one into the file (that copy was a third of an import's time on
/// the thread that encodes the records).
///
/// A few buffers go round: ``take()`` hands out a free one (waiting while all are queued or
/// being written), ``submit(_:count:at:)`` queues it. A failed write is kept: later writes are
/// skipped, and the next ``take()`` or ``drain()`` throws it. Nothing else may use the file
/// until ``drain()`` or ``stop()`` has returned. The buffers belong to the queue and live as
/// long as it does.
final class ImportPageWriteQueue: @unchecked Sendable {
    private struct Write {
        var buffer: UnsafeMutableRawPointer
        var count: Int
        var offset: Int64
    }

    private let file: DirectDatabaseFile
    private let buffers: [UnsafeMutableRawPointer]
    private let condition = Condition()
    private var free: [UnsafeMutableRawPointer]
    private var queued: [Write] = []
    private var writing = false
    private var failure: Error?
    private var stopping = false
    private var running = false

    /// `count` buffers of `bufferBytes` each, for writes to `file`.
    init(file: DirectDatabaseFile, bufferBytes: Int, count: Int) {
        self.file = file
        buffers = (0..<max(count, 2)).map { _ in .allocate(byteCount: bufferBytes, alignment: 16) }
        free = buffers
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// A free buffer, once one is.
    ///
    /// - Throws: The error of a write that failed.
    func take() throws -> UnsafeMutableRawPointer {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure { throw failure }
        return free.removeLast()
    }

    /// Queues the first `count` bytes of `buffer` (from ``take()``) for the file at `offset`.
    func submit(_ buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) {
        condition.lock()
        defer { condition.unlock() }
        if !running {
            running = true
            DetachedThread.start(stackSize: 256 * 1024) { [self] in writeQueued() }
        }
        queued.append(Write(buffer: buffer, count: count, offset: offset))
        condition.broadcast()
    }

    /// Waits until every queued write is done.
    ///
    /// - Throws: The error of a write that failed.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while !queued.isEmpty || writing { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the thread: the writes still queued are made (`discardQueued` false) or dropped,
    /// and none is under way when this returns. Later calls do nothing.
    func stop(discardQueued: Bool = false) {
        condition.lock()
        defer { condition.unlock() }
        if discardQueued {
            free.append(contentsOf: queued.map(\.buffer))
            queued.removeAll()
        }
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
    }

    /// The thread's loop: each queued write in turn, until ``stop(discardQueued:)``.
    private func writeQueued() {
        condition.lock()
        while true {
            while queued.isEmpty && !stopping { condition.wait() }
            if queued.isEmpty { break }
            let write = queued.removeFirst()
            writing = true
            let skip = failure != nil
            condition.unlock()
            var error: Error?
            if !skip {
                do { try file.write(write.buffer, count: write.count, at: write.offset) } catch let thrown {
                    error = thrown
                }
            }
            condition.lock()
            writing = false
            if failure == nil, let error { failure = error }
            free.append(write.buffer)
            condition.broadcast()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
