import FileSystemKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One HTTP GET of a file into its staged partial file, from where the partial file ends,
/// through URLSession's delegate API (streamed, and available on every platform the package
/// supports; the async `bytes(for:)` is iOS 15 / macOS 12).
///
/// Every byte is counted against the expected length, hashed and appended as it arrives. All
/// state is touched on one serial queue: the session's delegate queue, the stall timer's and
/// the cancellation's.
final class RangeTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let staging: StagingArea
    private let stallTimeout: TimeInterval
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    private let queue = DispatchQueue(label: "FeedClient.RangeTransfer")
    private let configuration: URLSessionConfiguration

    /// The validator sent in `If-Range` (nil: the transfer starts from zero).
    private let sentValidator: ResponseValidator?
    private var runningHash: SHA256Stream
    private var received: Int64
    private var descriptor: Int32 = -1
    private var session: URLSession?
    private var task: URLSessionDataTask?
    private var stallTimer: DispatchSourceTimer?
    private var lastActivity = DispatchTime.now()
    private var continuation: CheckedContinuation<(hash: SHA256Stream, length: Int64), Error>?
    private var finished = false

    /// A transfer that appends to `staging`'s partial file, whose first `received` bytes
    /// (hashed into `hash`) were staged under `validator`.
    init(
        staging: StagingArea, configuration: URLSessionConfiguration, stallTimeout: TimeInterval,
        resumingFrom validator: ResponseValidator?, hash: SHA256Stream, received: Int64,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) {
        self.staging = staging
        self.configuration = configuration
        self.stallTimeout = stallTimeout
        self.sentValidator = validator
        self.runningHash = validator == nil ? SHA256Stream() : hash
        self.received = validator == nil ? 0 : received
        self.progress = progress
    }

    /// Runs the transfer; returns the hash of the whole partial file and its length when the
    /// response ended normally (the caller checks both against the metadata).
    func run() async throws -> (hash: SHA256Stream, length: Int64) {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { self.start(continuation) }
            }
        } onCancel: {
            queue.async { self.fail(.cancelled(url: self.staging.target.url)) }
        }
    }

    private var url: URL { staging.target.url }
    private var expectedLength: Int64 { staging.target.length }

    private func start(_ continuation: CheckedContinuation<(hash: SHA256Stream, length: Int64), Error>) {
        self.continuation = continuation
        if finished { // cancelled before it started
            finish(.failure(DownloadError.cancelled(url: url)))
            return
        }
        let partial = staging.partial.path
        descriptor = POSIXFile.open(partial, O_WRONLY | O_CREAT | O_APPEND, mode: 0o644)
        guard descriptor >= 0 else {
            fail(staging.stagingError(partial, code: errno))
            return
        }
        if sentValidator == nil, ftruncate(descriptor, 0) != 0 {
            fail(staging.stagingError(partial, code: errno))
            return
        }
        // The stall timer decides; URLSession's own idle timeout is a backstop a second later
        // (FoundationNetworking fires it early below a second).
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: stallTimeout + 1)
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let sentValidator {
            request.setValue("bytes=\(received)-", forHTTPHeaderField: "Range")
            request.setValue(sentValidator.value, forHTTPHeaderField: "If-Range")
        }
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = queue
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
        self.session = session
        let task = session.dataTask(with: request)
        self.task = task
        lastActivity = .now()
        startStallTimer()
        task.resume()
    }

    private func startStallTimer() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = max(0.05, min(1, stallTimeout / 4))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let idle = Double(DispatchTime.now().uptimeNanoseconds - lastActivity.uptimeNanoseconds) / 1e9
            if idle >= stallTimeout { fail(.stalled(url: url, seconds: stallTimeout)) }
        }
        stallTimer = timer
        timer.resume()
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lastActivity = .now()
        guard !finished else { return completionHandler(.cancel) }
        if let error = accept(response) {
            fail(error)
            completionHandler(.cancel)
        } else {
            report()
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lastActivity = .now()
        guard !finished else { return }
        let room = expectedLength - received
        let accepted = data.prefix(Int(min(Int64(data.count), room)))
        let code = accepted.withUnsafeBytes { bytes -> Int32 in
            let code = POSIXFile.writeAll(descriptor, bytes)
            if code == 0 { runningHash.update(bytes) }
            return code
        }
        if code != 0 { return fail(staging.stagingError(staging.partial.path, code: code)) }
        received += Int64(accepted.count)
        report()
        if data.count > accepted.count {
            // Cut at the expected length: a whole file with another hash can never match.
            if runningHash.hexDigest() != staging.target.sha256 { staging.discardPartial() }
            fail(.tooManyBytes(url: url, expectedLength: expectedLength))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard !finished else { return }
        if let error {
            let error = error as NSError
            if error.domain == NSURLErrorDomain, error.code == URLError.timedOut.rawValue {
                return fail(.stalled(url: url, seconds: stallTimeout))
            }
            fail(.transport(url: url, code: error.code, reason: error.localizedDescription))
        } else {
            finish(.success((hash: runningHash, length: received)))
        }
    }

    // MARK: Decisions

    /// Nil when the transfer may go on with `response`'s body, else why not. A 200 restarts
    /// the partial file from zero (the file changed since it was staged, or nothing was).
    private func accept(_ response: URLResponse) -> DownloadError? {
        guard let response = response as? HTTPURLResponse else {
            return .transport(url: url, code: URLError.badServerResponse.rawValue, reason: "not an HTTP response")
        }
        switch response.statusCode {
        case 206:
            let contentRange = response.value(forHTTPHeaderField: "Content-Range")
            guard Self.start(ofContentRange: contentRange) == received else {
                return .unexpectedContentRange(url: url, offset: received, contentRange: contentRange)
            }
            if let sentValidator, sentValidator.isContradicted(by: response) {
                staging.discardPartial()
                let served = response.value(forHTTPHeaderField: sentValidator.field) ?? ""
                return .fileChanged(url: url, staged: sentValidator.value, served: served)
            }
            if response.expectedContentLength > expectedLength - received {
                return .tooManyBytes(url: url, expectedLength: expectedLength)
            }
        case 200:
            if response.expectedContentLength > expectedLength {
                return .tooManyBytes(url: url, expectedLength: expectedLength)
            }
            if received > 0 || sentValidator != nil {
                guard ftruncate(descriptor, 0) == 0 else {
                    return staging.stagingError(staging.partial.path, code: errno)
                }
                received = 0
                runningHash = SHA256Stream()
            }
            do { try staging.keep(ResponseValidator(of: response)) } catch { return error as? DownloadError }
        case 416:
            staging.discardPartial()
            return .rangeNotSatisfiable(url: url, offset: received)
        default:
            return .httpStatus(
                url: url, status: response.statusCode,
                retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
        }
        return nil
    }

    /// The first byte's offset in a `Content-Range: bytes FIRST-LAST/LENGTH` header.
    static func start(ofContentRange header: String?) -> Int64? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let range = header.dropFirst("bytes ".count)
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[..<dash].trimmingCharacters(in: .whitespaces))
    }

    private func report() {
        progress?(DownloadProgress(completedBytes: received, totalBytes: expectedLength))
    }

    // MARK: Ending

    /// Ends the transfer with `error` (once; later events are ignored) and cancels the request.
    private func fail(_ error: DownloadError) {
        finish(.failure(error))
    }

    private func finish(_ result: Result<(hash: SHA256Stream, length: Int64), Error>) {
        if finished, continuation == nil { return }
        finished = true
        guard let continuation else { return } // not started: start() finishes it
        self.continuation = nil
        stallTimer?.cancel()
        stallTimer = nil
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        task?.cancel()
        session?.invalidateAndCancel()
        session = nil
        continuation.resume(with: result)
    }
}
