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

/// Records parsed from the file and waiting to be inserted, with the warnings met between
/// them, in file order: the inserting side replays them one by one, so warnings, inserts and
/// errors happen in exactly the order the shell would print and run them.
final class ImportBatch: @unchecked Sendable {
    enum Entry {
        /// Bind the next `columnCount` fields and insert; the record starts at `line`.
        case insert(line: Int)
        /// Insert again with the bindings of the last bound record (a 3.40 ascii-mode quirk).
        case reinsert(line: Int)
        /// Report the next of `diagnostics` (an error ends the import). A warning of a kind
        /// already reported ``ImportWarningTally/reportedPerKind`` times is only counted and
        /// has no entry.
        case diagnostic
    }

    /// The field bytes of every record in the batch.
    let bytes: ImportByteArena
    let entries: [Entry]
    /// Where each field is in `bytes` (its length -1 for NULL), `columnCount` per inserted record.
    let fields: ImportFieldList
    let diagnostics: [Diagnostic]
    /// Bytes of the file read when the batch was handed over.
    let bytesRead: Int64
    /// No batch follows.
    let isLast: Bool
    /// A NUL byte was read by now: fields must be searched for one.
    let mayContainNul: Bool
    /// In the last batch: every warning of the import counted, for the summing-up warnings.
    let finalTally: ImportWarningTally?

    init(
        bytes: ImportByteArena, entries: [Entry], fields: ImportFieldList,
        diagnostics: [Diagnostic], bytesRead: Int64, isLast: Bool, mayContainNul: Bool,
        finalTally: ImportWarningTally?
    ) {
        self.bytes = bytes
        self.entries = entries
        self.fields = fields
        self.diagnostics = diagnostics
        self.bytesRead = bytesRead
        self.isLast = isLast
        self.mayContainNul = mayContainNul
        self.finalTally = finalTally
    }

    deinit {
        bytes.release()
        fields.release()
    }
}

/// A bounded queue of batches between the parsing thread and the inserting thread: the
/// parser waits when `capacity` batches are queued, so memory stays flat.
final class ImportBatchChannel: @unchecked Sendable {
    private let condition = Condition()
    private var queued: [ImportBatch] = []
    private let capacity: Int
    private var cancelled = false
    private var producerFinished = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues a batch; false when the consumer gave up (the producer should stop).
    func put(_ batch: ImportBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queued.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        queued.append(batch)
        condition.broadcast()
        return true
    }

    /// The next batch, or nil when the producer finished without sending more.
    func take() -> ImportBatch? {
        condition.lock()
        defer { condition.unlock() }
        while queued.isEmpty && !producerFinished { condition.wait() }
        if queued.isEmpty { return nil }
        let batch = queued.removeFirst()
        condition.broadcast()
        return batch
    }

    /// The consumer stops: a waiting producer wakes up and quits.
    func cancel() {
        condition.lock()
        cancelled = true
        queued.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func markProducerFinished() {
        condition.lock()
        producerFinished = true
        condition.broadcast()
        condition.unlock()
    }

    func waitForProducer() {
        condition.lock()
        while !producerFinished { condition.wait() }
        condition.unlock()
    }
}

/// Runs a parser on its own thread, handing batches over until the end or a cancel.
final class ImportBatchProducer: @unchecked Sendable {
    private var parser: ImportRecordParser
    private let channel: ImportBatchChannel

    init(parser: ImportRecordParser, channel: ImportBatchChannel) {
        self.parser = parser
        self.channel = channel
    }

    func run() {
        defer {
            parser.release()
            channel.markProducerFinished()
        }
        while true {
            let batch = parser.nextBatch(maxRecords: ImportSession.batchRecords, maxBytes: ImportSession.batchBytes)
            if !channel.put(batch) || batch.isLast { return }
        }
    }
}
