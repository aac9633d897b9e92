import Foundation
import ShipyardTestSupport
import SyncProtocol
@testable import SyncClient

/// A server of the tests' own, in the process: each request's body is decoded with SyncProtocol
/// (so a test sees what the device sent) and answered by the test's closure with an answer built
/// with SyncProtocol, an HTTP refusal, or a lost answer.
final class ScriptedSyncServer: SyncTransport, @unchecked Sendable {
    /// What the server does with one request.
    enum Reply {
        /// 200 with this answer.
        case answer(SyncAnswer)
        /// An HTTP refusal with a `text/plain` reason.
        case refusal(Int, String)
        /// The request reached the server (it may have applied it) but no answer came back.
        case lost
        /// 200 with these bytes as the body.
        case raw([UInt8], contentType: String)
    }

    private let lock = NSLock()
    private var handler: (SyncRequest, Int) throws -> Reply
    private var recordedRequests: [SyncRequest] = []
    private var recordedBodies: [[UInt8]] = []
    private var recordedHeaders: [[(name: String, value: String)]] = []
    /// The server's clock, in milliseconds (sent in every answer's header).
    var clock: Int64 = 1_800_000_000_000

    init(_ handler: @escaping (SyncRequest, Int) throws -> Reply) {
        self.handler = handler
    }

    /// Replaces what the server does.
    func answer(_ handler: @escaping (SyncRequest, Int) throws -> Reply) {
        lock.withLock { self.handler = handler }
    }

    var requests: [SyncRequest] { lock.withLock { recordedRequests } }
    var bodies: [[UInt8]] { lock.withLock { recordedBodies } }
    var headers: [[(name: String, value: String)]] { lock.withLock { recordedHeaders } }

    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPAnswer {
        let decoded = try SyncRequest(decoding: request.body)
        let (handler, index, clock) = lock.withLock { () -> ((SyncRequest, Int) throws -> Reply, Int, Int64) in
            recordedRequests.append(decoded)
            recordedBodies.append(request.body)
            recordedHeaders.append(request.headers)
            return (self.handler, recordedRequests.count - 1, self.clock)
        }
        let headers = ["Shipyard-Sync-Clock": String(clock)]
        switch try handler(decoded, index) {
        case .answer(let answer):
            return SyncHTTPAnswer(
                status: 200, headers: headers.merging(["Content-Type": "application/x-shipyard-sync"]) { $1 },
                body: answer.encoded())
        case .refusal(let status, let reason):
            return SyncHTTPAnswer(
                status: status, headers: headers.merging(["Content-Type": "text/plain; charset=utf-8"]) { $1 },
                body: Array("sync: error: \(reason)\n".utf8))
        case .lost:
            throw SyncClientError.transport("connection reset")
        case .raw(let body, let type):
            return SyncHTTPAnswer(status: 200, headers: headers.merging(["Content-Type": type]) { $1 }, body: body)
        }
    }
}

extension SyncAnswer {
    /// The answer acknowledging `request`'s batch (applied, no results), with nothing pulled.
    static func acknowledging(_ request: SyncRequest, clock: UInt64 = 1_800_000_000_000, cursor: UInt64? = nil)
        -> SyncAnswer
    {
        SyncAnswer(
            clock: clock, batch: request.batch?.id ?? 0, status: request.batch == nil ? .none : .applied,
            cursor: cursor ?? request.cursor)
    }
}
