#if canImport(Darwin)
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

/// One exchange through URLSession's delegate API, on Apple platforms (every OS the package
/// supports has it; the async `bytes(for:)` is iOS 15 / macOS 12): a session of its own whose
/// delegate hands the head and each piece of the body to the ``ResponseGate`` as they arrive,
/// on one serial queue, which the gate's clocks (a one-shot timer, set again for the next time
/// a clock can pass) and the cancellation use too.
///
/// URLSession decodes a compressed answer by itself; the gate refuses one from its head (its
/// `Content-Encoding`), so no decoded byte is ever accepted.
final class SessionTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let gate: ResponseGate
    private let configuration: URLSessionConfiguration
    private let queue = DispatchQueue(label: "HTTPTransport.URLSession")
    private var session: URLSession?
    private var task: URLSessionDataTask?
    private var timer: DispatchSourceTimer?
    private var continuation: CheckedContinuation<HTTPResponseHead, Error>?
    private var ended = false

    init(gate: ResponseGate, configuration: URLSessionConfiguration) {
        self.gate = gate
        self.configuration = configuration
    }

    /// Runs the exchange; the task's cancellation stops it.
    func run() async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, Error>) in
                queue.async { self.start(continuation) }
            }
        } onCancel: {
            gate.cancel()
            queue.async { self.end(nil) }
        }
    }

    private func start(_ continuation: CheckedContinuation<HTTPResponseHead, Error>) {
        self.continuation = continuation
        guard !gate.isSettled else { return end(nil) } // cancelled before it started
        // The gate's stall clock decides; URLSession's own idle timeout is a backstop a second later.
        var request = URLRequest(
            url: gate.request.url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: gate.request.stallTimeout + 1)
        for field in gate.request.sentFields {
            request.setValue(field.value, forHTTPHeaderField: field.name)
        }
        if gate.request.method == .post {
            request.httpMethod = "POST"
            request.httpBody = gate.request.body
        }
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = queue
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
        self.session = session
        let task = session.dataTask(with: request)
        self.task = task
        scheduleClockCheck()
        task.resume()
    }

    /// A one-shot timer for the next time a clock of the gate can pass.
    private func scheduleClockCheck() {
        timer?.cancel()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + gate.secondsToNextCheck())
        timer.setEventHandler { [weak self] in
            guard let self, !self.ended else { return }
            if self.gate.checkClocks() { self.scheduleClockCheck() } else { self.end(nil) }
        }
        self.timer = timer
        timer.resume()
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard !ended, let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return end(.connection(url: gate.request.url, code: 0, reason: "not an HTTP response"))
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String { fields[name] = "\(value)" }
        }
        if gate.head(HTTPResponseHead(status: http.statusCode, fields: fields)) {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
            end(nil)
        }
    }

    /// A piece of a POST's body has gone: progress for the stall clock.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard !ended else { return }
        if !gate.sent(Int(clamping: bytesSent)) { end(nil) }
    }

    /// A GET follows the redirect; a POST does not (its answer is the redirect, as with libcurl).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(gate.request.method == .get ? request : nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard !ended else { return }
        for region in data.regions {
            let going = region.withUnsafeBytes { gate.body($0) }
            if !going { return end(nil) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard !ended else { return }
        guard let error = error as NSError? else { return end(nil) }
        let url = gate.request.url
        if error.domain == NSURLErrorDomain, error.code == URLError.timedOut.rawValue {
            return end(.stalled(url: url, seconds: gate.request.stallTimeout))
        }
        end(.connection(url: url, code: error.code, reason: error.localizedDescription))
    }

    // MARK: Ending

    /// Ends the exchange once (later events are ignored): stops the clock, cancels the task
    /// and the session, and resumes the caller with the gate's outcome.
    private func end(_ error: HTTPTransferError?) {
        guard !ended, let continuation else { return } // not started: start() ends it
        ended = true
        self.continuation = nil
        timer?.cancel()
        timer = nil
        task?.cancel()
        session?.invalidateAndCancel()
        session = nil
        continuation.resume(with: gate.finish(error))
    }
}
#endif
