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
import TUF

/// Fetches metadata documents over HTTP(S) for TUF's updater, through HTTPTransport (URLSession's
/// delegate API on Apple platforms, from iOS 13 / macOS 10.15; libcurl on Linux), never
/// accepting more bytes than the cap: a declared length over the cap is refused from the head,
/// a body is cut as soon as it passes the cap, and a compressed answer (`Content-Encoding`,
/// although `identity` is asked for) is refused, never decoded. Every request has a stall
/// timeout and a total deadline (`HTTPRequest.deadline(forBodyOf:)` of the cap).
public final class HTTPFetcher: Fetcher, @unchecked Sendable {
    private let client: HTTPClient
    /// How long a request may go without receiving a byte.
    public let stallTimeout: TimeInterval

    #if canImport(Darwin)
    /// A fetcher using sessions of this configuration (ephemeral by default), with caching off;
    /// no request may go `stallTimeout` seconds without a byte (the configuration's
    /// `timeoutIntervalForRequest`, 30 s by default).
    public init(configuration: URLSessionConfiguration? = nil, stallTimeout: TimeInterval? = nil) {
        client = HTTPClient(configuration: configuration ?? .ephemeral)
        self.stallTimeout = stallTimeout ?? configuration?.timeoutIntervalForRequest ?? 30
    }
    #else
    /// A fetcher (libcurl, loaded at the first request); no request may go `stallTimeout`
    /// seconds without a byte.
    public init(stallTimeout: TimeInterval = 30) {
        client = HTTPClient()
        self.stallTimeout = stallTimeout
    }
    #endif

    public func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        switch try await fetch(url, maximumLength: maximumLength, ifNoneMatch: nil) {
        case .modified(let data, _): return data
        case .notModified: throw HTTPFetchError.status(url: url.absoluteString, code: 304)
        }
    }

    /// What a conditional request got: the server's copy is the one named (304), or a body
    /// with the `ETag` it came with.
    public enum ConditionalAnswer: Equatable, Sendable {
        /// 304: the file is still the one whose ETag was sent.
        case notModified
        /// 200: the body (at most the cap) and its `ETag`, if the server sent one.
        case modified(Data, etag: String?)
    }

    /// Fetches `url` with `If-None-Match: etag` when `etag` is given (a conditional GET: a
    /// 304 answer costs no body), under the same cap and errors as ``fetch(_:maximumLength:)``.
    public func fetch(_ url: URL, maximumLength: Int, ifNoneMatch etag: String?) async throws -> ConditionalAnswer {
        let collector = CappedBody()
        let request = HTTPRequest(
            url: url, headerFields: etag.map { [HTTPField("If-None-Match", $0)] } ?? [],
            maximumBodyLength: Int64(maximumLength), stallTimeout: stallTimeout)
        let name = url.absoluteString
        let head: HTTPResponseHead
        do {
            head = try await client.send(request, to: collector)
        } catch let error as HTTPTransferError {
            switch error {
            case .tooLarge: throw FetchError.tooLarge(url: name, limit: maximumLength)
            case .stalled(_, let seconds): throw HTTPFetchError.stalled(url: name, seconds: seconds)
            case .deadlineExceeded(_, let seconds): throw HTTPFetchError.deadlineExceeded(url: name, seconds: seconds)
            case .compressed(_, let encoding): throw HTTPFetchError.compressed(url: name, encoding: encoding)
            case .cancelled: throw HTTPFetchError.cancelled(url: name)
            case .headersTooLarge, .connection, .unavailable:
                throw HTTPFetchError.transport(url: name, reason: error.reason)
            }
        }
        switch head.status {
        case 304 where etag != nil: return .notModified
        case 200: return .modified(collector.data, etag: head.value("ETag"))
        case 403, 404: throw FetchError.notFound(url: name)
        default: throw HTTPFetchError.status(url: name, code: head.status)
        }
    }
}

/// The body of a 200 (every other status is decided from the head alone), at most the request's
/// cap: HTTPTransport counts every byte before it arrives here.
private final class CappedBody: HTTPResponseHandler {
    private(set) var data = Data()

    func head(_ head: HTTPResponseHead) throws -> HTTPBodyDecision {
        head.status == 200 ? .receive : .skip
    }

    func body(_ bytes: UnsafeRawBufferPointer) throws {
        data.append(contentsOf: bytes)
    }
}
