import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sync's HTTP through URLSession's delegate API (iOS 13 / macOS 10.15: no async URLSession
/// methods, which need iOS 15), FoundationNetworking's on Linux: one ephemeral session per
/// request, the answer's body capped as it arrives, the transfer cancelled with the task.
package struct HTTPSyncTransport: SyncTransport {
    package init() {}

    package func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPAnswer {
        // FoundationNetworking ends a transfer at once for a timeout under a second: at least 1 s.
        let idleTimeout = max(request.idleTimeout, 1)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = request.deadline
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = Data(request.body)
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        let transfer = SyncTransfer(url: request.url, maximumBytes: request.maximumAnswerBytes)
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(continuation)
                task.resume()
            }
        } onCancel: {
            transfer.finish(.failure(SyncClientError.cancelled))
            task.cancel()
        }
    }
}

/// One transfer: collects the answer under the cap and resumes the caller once.
private final class SyncTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let maximumBytes: Int
    private let lock = NSLock()
    private var continuation: CheckedContinuation<SyncHTTPAnswer, Error>?
    private var early: Result<SyncHTTPAnswer, Error>?
    private var status = 0
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []

    init(url: URL, maximumBytes: Int) {
        self.url = url
        self.maximumBytes = maximumBytes
    }

    /// Registers the caller (a result that came first is delivered at once).
    func start(_ continuation: CheckedContinuation<SyncHTTPAnswer, Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    /// Resumes the caller with the first result; later ones are ignored.
    func finish(_ result: Result<SyncHTTPAnswer, Error>) {
        lock.lock()
        if let continuation {
            self.continuation = nil
            early = early ?? result
            lock.unlock()
            continuation.resume(with: result)
            return
        }
        if early == nil { early = result }
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if response.expectedContentLength > Int64(maximumBytes) {
            finish(
                .failure(SyncClientError.transport("\(url.absoluteString): the answer is over \(maximumBytes) bytes")))
            completionHandler(.cancel)
            return
        }
        lock.lock()
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for name in ["Content-Type", "Shipyard-Sync-Clock"] {
                if let value = http.value(forHTTPHeaderField: name) { headers[name.lowercased()] = value }
            }
        }
        lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        let over = body.count + data.count > maximumBytes
        if !over { body.append(contentsOf: data) }
        lock.unlock()
        if over {
            finish(
                .failure(SyncClientError.transport("\(url.absoluteString): the answer is over \(maximumBytes) bytes")))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            finish(.failure(SyncClientError.transport("\(url.absoluteString): \(error.localizedDescription)")))
            return
        }
        lock.lock()
        let answer = SyncHTTPAnswer(status: status, headers: headers, body: body)
        lock.unlock()
        finish(.success(answer))
    }
}
