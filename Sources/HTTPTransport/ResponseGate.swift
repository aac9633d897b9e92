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
import Dispatch

/// What both transports (libcurl's on Linux, URLSession's on Apple platforms) share: the
/// decisions on an answer's head, the count of its body against the cap, the clocks of the stall
/// timeout and the deadline, and the one outcome of the exchange.
///
/// A transport reports what arrives (``head(_:)``, ``body(_:)``, ``headerBytes(_:)``) and what
/// of a POST's body has gone (``sent(_:now:)``), asks
/// ``checkClocks(now:)`` whenever it wakes up, and stops the transfer as soon as any of these
/// returns false; it ends with ``finish(_:)``. All calls but ``cancel()`` come from the
/// transport's one thread or serial queue; the lock makes ``cancel()`` safe from any thread.
final class ResponseGate: @unchecked Sendable {
    let request: HTTPRequest
    private let handler: HTTPResponseHandler
    private let lock = Lock()
    private let start: UInt64
    private var lastActivity: UInt64
    private var decided: HTTPResponseHead?
    private var received: Int64 = 0
    private var headerCount = 0
    private var outcome: Result<HTTPResponseHead, Error>?

    init(request: HTTPRequest, handler: HTTPResponseHandler, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.request = request
        self.handler = handler
        start = now
        lastActivity = now
    }

    private var url: URL { request.url }

    /// Records the first outcome; false (stop) once there is one.
    @discardableResult
    private func settle(_ result: Result<HTTPResponseHead, Error>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if outcome == nil { outcome = result }
        return false
    }

    /// Whether the exchange already has its outcome (a refusal, a cancellation, the handler's error).
    var isSettled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return outcome != nil
    }

    /// Bytes of header fields arrived: counted against their limit; the stall clock restarts.
    func headerBytes(_ count: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        lastActivity = now
        headerCount += count
        guard headerCount <= request.maximumHeaderBytes else {
            return settle(.failure(HTTPTransferError.headersTooLarge(url: url, limit: request.maximumHeaderBytes)))
        }
        return !isSettled
    }

    /// A piece of the request's body was taken by the connection: progress, so the stall clock
    /// restarts (a slow upload is not a silent server). False: stop.
    func sent(_ count: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        if count > 0 { lastActivity = now }
        return !isSettled
    }

    /// The answer's head (not a redirect's): the handler decides, then the encoding and the
    /// declared length are checked. False: stop (the outcome is recorded, a skip included).
    func head(_ head: HTTPResponseHead, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        lastActivity = now
        guard decided == nil, !isSettled else { return !isSettled }
        decided = head
        do {
            switch try handler.head(head) {
            case .skip:
                return settle(.success(head))
            case .receive:
                if let encoding = head.compressedEncoding {
                    return settle(.failure(HTTPTransferError.compressed(url: url, encoding: encoding)))
                }
                if let declared = head.contentLength, declared > request.maximumBodyLength {
                    return settle(.failure(HTTPTransferError.tooLarge(url: url, limit: request.maximumBodyLength)))
                }
                return true
            }
        } catch {
            return settle(.failure(error))
        }
    }

    /// A piece of the body: counted against the cap and handed on, up to the cap; a piece that
    /// goes past it is cut there (the handler gets the bytes up to the cap, never one more) and
    /// the exchange ends. False: stop.
    func body(_ bytes: UnsafeRawBufferPointer, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        lastActivity = now
        guard decided != nil, !isSettled else { return false }
        let room = request.maximumBodyLength - received
        let accepted = Int64(bytes.count) <= room ? bytes : UnsafeRawBufferPointer(rebasing: bytes.prefix(Int(room)))
        received += Int64(accepted.count)
        do {
            if !accepted.isEmpty { try handler.body(accepted) }
        } catch {
            return settle(.failure(error))
        }
        guard accepted.count == bytes.count else {
            return settle(.failure(HTTPTransferError.tooLarge(url: url, limit: request.maximumBodyLength)))
        }
        return true
    }

    /// Whether a head has been decided on (the transport then hands on body bytes).
    var hasHead: Bool { decided != nil }

    /// The stall timeout or the deadline passed at `now`: false (stop, the outcome recorded).
    func checkClocks(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        if Self.seconds(from: start, to: now) >= request.deadline {
            return settle(.failure(HTTPTransferError.deadlineExceeded(url: url, seconds: request.deadline)))
        }
        if Self.seconds(from: lastActivity, to: now) >= request.stallTimeout {
            return settle(.failure(HTTPTransferError.stalled(url: url, seconds: request.stallTimeout)))
        }
        return !isSettled
    }

    /// How long until a clock can next pass (at least a millisecond).
    func secondsToNextCheck(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> TimeInterval {
        let deadline = request.deadline - Self.seconds(from: start, to: now)
        let stall = request.stallTimeout - Self.seconds(from: lastActivity, to: now)
        return max(0.001, min(deadline, stall))
    }

    /// Cancels the exchange (from any thread): its outcome is ``HTTPTransferError/cancelled(url:)``
    /// unless it already had one.
    func cancel() {
        settle(.failure(HTTPTransferError.cancelled(url: url)))
    }

    /// The outcome, once the transfer has stopped: the first one recorded, else the transport's
    /// `error`, else the head (the whole body was received).
    func finish(_ error: HTTPTransferError?) -> Result<HTTPResponseHead, Error> {
        lock.lock()
        let recorded = outcome
        lock.unlock()
        if let recorded { return recorded }
        if let error { return .failure(error) }
        guard let decided else {
            return .failure(HTTPTransferError.connection(url: url, code: 0, reason: "the server sent no answer"))
        }
        return .success(decided)
    }

    private static func seconds(from start: UInt64, to end: UInt64) -> TimeInterval {
        end > start ? Double(end - start) / 1e9 : 0
    }
}
