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

/// Shipyard's HTTP client: one exchange per call (a GET, or a POST of a body), the answer's body
/// streamed to a handler, never more bytes accepted than the request's cap, never decoded,
/// never longer than its deadline or its stall timeout.
///
/// - Linux: libcurl, loaded at the first request (`dlopen`), driven from a thread of its own
///   that sleeps until a socket is ready (a silent server costs no CPU).
/// - Apple platforms: URLSession's delegate API with the configuration given (iOS 13 /
///   macOS 10.15 and later).
///
/// ```swift
/// final class Collect: HTTPResponseHandler {
///     var data = Data()
///     func head(_ head: HTTPResponseHead) throws -> HTTPBodyDecision { head.status == 200 ? .receive : .skip }
///     func body(_ bytes: UnsafeRawBufferPointer) throws { data.append(contentsOf: bytes) }
/// }
/// let collect = Collect()
/// let head = try await HTTPClient().send(HTTPRequest(url: url, maximumBodyLength: 16_384), to: collect)
/// ```
public final class HTTPClient: @unchecked Sendable {
    #if canImport(Darwin)
    /// A copy of the configuration each exchange's session is made with, its caching off.
    private let configuration: URLSessionConfiguration

    /// A client whose sessions use a copy of `configuration` (the app's: expensive or
    /// constrained network access, cellular access, proxies, additional headers...) with its
    /// caching turned off. A background configuration (one with an `identifier`) is refused at
    /// each request: background sessions run no data task, and only a data task streams each
    /// byte through the caps as it arrives.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        // URLSessionConfiguration.copy() returns a URLSessionConfiguration.
        // swift-format-ignore: NeverForceUnwrap
        let copy = configuration.copy() as! URLSessionConfiguration // swiftlint:disable:this force_cast
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        copy.urlCache = nil
        self.configuration = copy
    }
    #else
    /// A client (libcurl; nothing is loaded until the first request).
    public init() {}
    #endif

    /// Sends `request` and hands its answer to `handler` (the head, then the body as it
    /// arrives); returns the head once the body has ended, or once the handler skipped it.
    ///
    /// - Throws: what the handler threw, as it was thrown, or ``HTTPTransferError`` naming the
    ///   URL: the cap, a compressed answer, the deadline, a stall, the connection, a cancellation.
    @discardableResult
    public func send(_ request: HTTPRequest, to handler: HTTPResponseHandler) async throws -> HTTPResponseHead {
        let gate = ResponseGate(request: request, handler: handler)
        guard !Task.isCancelled else { throw HTTPTransferError.cancelled(url: request.url) }
        #if canImport(Darwin)
        if configuration.identifier != nil {
            throw HTTPTransferError.unavailable(
                url: request.url,
                reason:
                    "a background URLSession configuration cannot stream a response: pass a default or ephemeral one")
        }
        return try await SessionTransfer(gate: gate, configuration: configuration).run()
        #else
        return try await CurlTransfer(gate: gate).run()
        #endif
    }
}
