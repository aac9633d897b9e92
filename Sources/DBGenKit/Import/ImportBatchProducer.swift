import Foundation

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
