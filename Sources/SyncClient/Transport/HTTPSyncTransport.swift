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
import HTTPTransport

/// The sync's HTTP through Shipyard's HTTP client (HTTPTransport: URLSession's delegate API on
/// Apple platforms, libcurl loaded at the first request on Linux), the one FeedClient fetches
/// with: a POST whose answer is capped as it arrives, never decoded, bounded by the request's
/// deadline and stall timeout, and cancelled with the task.
package struct HTTPSyncTransport: SyncTransport {
    private let client: HTTPClient

    /// A transport over a client of its own.
    package init() {
        client = HTTPClient()
    }

    package func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPAnswer {
        let collector = AnswerCollector()
        let head: HTTPResponseHead
        do {
            head = try await client.send(
                HTTPRequest(
                    post: request.url, body: Data(request.body),
                    headerFields: request.headers.map { HTTPField($0.name, $0.value) },
                    maximumBodyLength: Int64(request.maximumAnswerBytes), deadline: request.deadline,
                    stallTimeout: request.idleTimeout),
                to: collector)
        } catch HTTPTransferError.cancelled {
            throw SyncClientError.cancelled
        } catch HTTPTransferError.tooLarge(let url, let limit) {
            throw SyncClientError.transport("\(url.absoluteString): the answer is over \(limit) bytes")
        } catch let error as HTTPTransferError {
            throw SyncClientError.transport(error.description)
        }
        return SyncHTTPAnswer(status: head.status, headers: head.fields, body: collector.bytes)
    }
}

/// Keeps an answer's body (of any status: a refusal's body gives its reason), which the
/// transport hands on under the request's cap.
private final class AnswerCollector: HTTPResponseHandler {
    var bytes: [UInt8] = []

    func head(_ head: HTTPResponseHead) throws -> HTTPBodyDecision { .receive }

    func body(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
}
