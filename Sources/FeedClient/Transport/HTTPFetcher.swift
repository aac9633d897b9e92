import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TUF

/// Fetches over HTTP(S) with URLSession's delegate API (available from iOS 13 / macOS 10.15), never
/// accepting more bytes than the cap: a declared length over the cap is refused before the body, and the
/// transfer is cancelled as soon as the body passes it.
public final class HTTPFetcher: Fetcher, @unchecked Sendable {
    private let configuration: URLSessionConfiguration

    /// A fetcher using a session of this configuration (ephemeral, 30 s timeout by default).
    public init(configuration: URLSessionConfiguration? = nil) {
        if let configuration {
            self.configuration = configuration
        } else {
            let ephemeral = URLSessionConfiguration.ephemeral
            ephemeral.timeoutIntervalForRequest = 30
            ephemeral.requestCachePolicy = .reloadIgnoringLocalCacheData
            self.configuration = ephemeral
        }
    }

    public func fetch(_ url: URL, maximumLength: Int) throws -> Data {
        switch try fetch(url, maximumLength: maximumLength, ifNoneMatch: nil) {
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
    public func fetch(_ url: URL, maximumLength: Int, ifNoneMatch etag: String?) throws -> ConditionalAnswer {
        let transfer = CappedTransfer(url: url, maximumLength: maximumLength, acceptsNotModified: etag != nil)
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        session.dataTask(with: request).resume()
        transfer.done.wait()
        return try transfer.result!.get()
    }
}

/// One transfer: collects the body under the cap and signals as soon as it has a result (a refusal does not
/// wait for the transfer to wind down).
private final class CappedTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let url: URL
    let maximumLength: Int
    /// Whether a 304 is an answer (a conditional request) rather than a failure.
    let acceptsNotModified: Bool
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var body = Data()
    private var etag: String?
    private(set) var result: Result<HTTPFetcher.ConditionalAnswer, Error>?

    init(url: URL, maximumLength: Int, acceptsNotModified: Bool) {
        self.url = url
        self.maximumLength = maximumLength
        self.acceptsNotModified = acceptsNotModified
    }

    /// Records the first result and wakes the caller; later ones are ignored.
    private func finish(_ outcome: Result<HTTPFetcher.ConditionalAnswer, Error>) {
        lock.lock()
        let first = result == nil
        if first { result = outcome }
        lock.unlock()
        if first { done.signal() }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let name = url.absoluteString
        if let http = response as? HTTPURLResponse, http.statusCode == 304, acceptsNotModified {
            finish(.success(.notModified))
            completionHandler(.cancel)
            return
        }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 {
            finish(
                .failure(
                    http.statusCode == 403 || http.statusCode == 404
                        ? FetchError.notFound(url: name) : HTTPFetchError.status(url: name, code: http.statusCode)))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(maximumLength) {
            finish(.failure(FetchError.tooLarge(url: name, limit: maximumLength)))
            completionHandler(.cancel)
            return
        }
        lock.lock()
        etag = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag")
        lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let over = body.count + data.count > maximumLength
        if !over { body.append(data) }
        lock.unlock()
        if over {
            finish(.failure(FetchError.tooLarge(url: url.absoluteString, limit: maximumLength)))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            finish(.failure(HTTPFetchError.transport(url: url.absoluteString, reason: error.localizedDescription)))
        } else {
            lock.lock()
            let (body, etag) = (self.body, self.etag)
            lock.unlock()
            finish(.success(.modified(body, etag: etag)))
        }
    }
}
