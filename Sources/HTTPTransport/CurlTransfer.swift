#if !canImport(Darwin)
import CCurl
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

/// One exchange through libcurl, on Linux: an easy handle in a multi handle of its own, driven
/// from a thread of its own that sleeps in `curl_multi_poll` until a socket is ready, a clock of
/// the ``ResponseGate`` is due, or a cancellation wakes it. No busy wait: a silent server costs
/// no CPU. Bytes go from libcurl's write callback through the gate to the handler: never
/// buffered whole. A POST's body goes out through the read callback, each piece progress for
/// the stall clock.
///
/// libcurl is loaded at the first exchange (`dlopen`, see CCurl), so a process that makes none
/// never maps it. Compressed answers are never decoded: no `CURLOPT_ACCEPT_ENCODING`, and
/// `CURLOPT_HTTP_CONTENT_DECODING` off.
final class CurlTransfer: @unchecked Sendable {
    private let gate: ResponseGate
    private let lock = Lock()
    private var multi: UnsafeMutableRawPointer?
    /// The head being read (a redirect's or the answer's), from header lines.
    private var status: Int?
    private var fields: [String: String] = [:]
    /// The last redirect seen: the answer, should libcurl not follow it.
    private var lastRedirect: HTTPResponseHead?
    /// How much of a POST's body libcurl has taken.
    private var bodySent = 0

    init(gate: ResponseGate) {
        self.gate = gate
    }

    private var request: HTTPRequest { gate.request }

    /// Runs the exchange on a thread of its own; the task's cancellation stops it.
    func run() async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, Error>) in
                DetachedThread.start(name: "HTTPTransport.curl") { continuation.resume(with: self.perform()) }
            }
        } onCancel: {
            gate.cancel()
            lock.lock()
            if let multi { _ = shipyard_curl_multi_wakeup(multi) }
            lock.unlock()
        }
    }

    private func perform() -> Result<HTTPResponseHead, Error> {
        var reason = [CChar](repeating: 0, count: 512)
        guard shipyard_curl_load(&reason, reason.count) == 0 else {
            return gate.finish(.unavailable(url: request.url, reason: String(cString: reason)))
        }
        guard let easy = shipyard_curl_easy_init(), let multi = shipyard_curl_multi_init() else {
            return gate.finish(.unavailable(url: request.url, reason: "libcurl could not make a handle"))
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var fieldList: UnsafeMutablePointer<curl_slist>?
        defer {
            lock.lock()
            self.multi = nil
            lock.unlock()
            _ = shipyard_curl_multi_remove_handle(multi, easy)
            shipyard_curl_easy_cleanup(easy)
            _ = shipyard_curl_multi_cleanup(multi)
            shipyard_curl_slist_free_all(fieldList)
            errorBuffer.deallocate()
        }
        // "Expect:" (no value) keeps libcurl from sending `Expect: 100-continue` and waiting for
        // an interim answer before a POST's body: the body goes at once.
        let expect = request.method == .post ? [HTTPField("Expect", "")] : []
        for field in request.sentFields + expect {
            fieldList = shipyard_curl_slist_append(fieldList, "\(field.name): \(field.value)")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let url = request.url.absoluteString
        let configured = url.withCString { url in
            [
                shipyard_curl_setopt_pointer(easy, CURLOPT_URL, url),
                shipyard_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, fieldList),
                shipyard_curl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
                shipyard_curl_setopt_pointer(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
                shipyard_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
                // A POST follows no redirect: its answer is the redirect (libcurl would turn a 302
                // into a GET, or send the body again elsewhere).
                shipyard_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, request.method == .get ? 1 : 0),
                shipyard_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 10),
                shipyard_curl_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0),
                shipyard_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
                // A backstop a second after the gate's own deadline, which decides.
                shipyard_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.deadline + 1)),
                shipyard_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
                shipyard_curl_setopt_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderLine),
                shipyard_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
                shipyard_curl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, curlBodyPiece),
            ]
        }
        // A POST's body, handed to libcurl piece by piece as the connection takes it, so that each
        // piece counts as progress for the stall clock.
        let posting =
            request.method == .post
            ? [
                shipyard_curl_setopt_long(easy, CURLOPT_POST, 1),
                shipyard_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
                shipyard_curl_setopt_pointer(easy, CURLOPT_READDATA, context),
                shipyard_curl_setopt_read_callback(easy, CURLOPT_READFUNCTION, curlRequestPiece),
                // Else the kernel takes megabytes at once and a slow reader looks like a stall.
                shipyard_curl_setopt_small_send_buffer(easy),
            ] : []
        if let failed = (configured + posting).first(where: { $0 != CURLE_OK }) {
            let version = shipyard_curl_version().map { String(cString: $0) } ?? "libcurl"
            let why = String(cString: shipyard_curl_easy_strerror(failed))
            return gate.finish(
                .unavailable(url: request.url, reason: "\(version) refused an option (\(why)): 7.85 or later is needed")
            )
        }
        guard shipyard_curl_multi_add_handle(multi, easy) == CURLM_OK else {
            return gate.finish(.unavailable(url: request.url, reason: "libcurl could not start the transfer"))
        }
        lock.lock()
        self.multi = multi
        lock.unlock()
        var result = CURLE_OK
        while true {
            var running: Int32 = 0
            _ = shipyard_curl_multi_perform(multi, &running)
            if shipyard_curl_multi_done(multi, &result) != 0 { break }
            guard gate.checkClocks() else { break } // a clock passed, or cancelled, or stopped by a callback
            _ = shipyard_curl_multi_poll(multi, Int32(min(Self.milliseconds(gate.secondsToNextCheck()), 3_600_000)))
        }
        if result == CURLE_OK {
            if !gate.hasHead, let lastRedirect { _ = gate.head(lastRedirect) }
            return gate.finish(nil)
        }
        let detail = String(cString: errorBuffer)
        let words = detail.isEmpty ? String(cString: shipyard_curl_easy_strerror(result)) : detail
        return gate.finish(.connection(url: request.url, code: Int(result.rawValue), reason: words))
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int(min(max(seconds, 0), 86_400 * 365) * 1000)
    }

    // MARK: libcurl's callbacks (on the transfer's thread)

    /// One header line of a response (its status line, a field, or the blank line that ends it).
    fileprivate func headerLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard gate.headerBytes(bytes.count) else { return false }
        let line = String(decoding: bytes, as: UTF8.self).trimmingWhitespaceAndNewlines()
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count >= 2 ? Int(parts[1]) : nil
            fields = [:]
            return true
        }
        if line.isEmpty {
            guard let status else { return true }
            let head = HTTPResponseHead(status: status, fields: fields)
            self.status = nil
            // 1xx and the redirects libcurl follows are not the answer.
            if (100...199).contains(status) { return true }
            if head.isRedirect {
                lastRedirect = head
                return true
            }
            return gate.head(head)
        }
        guard let colon = line.firstIndex(of: ":") else { return true }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpacesAndTabs()
        fields[name] = fields[name].map { $0 + ", " + value } ?? value
        return true
    }

    /// The next piece of a POST's body, copied into libcurl's `buffer` (at most `capacity`
    /// bytes); nil stops the transfer (the exchange already has its outcome).
    fileprivate func requestPiece(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int? {
        let body = request.body
        let count = min(capacity, body.count - bodySent)
        guard count > 0 else { return gate.isSettled ? nil : 0 }
        let start = body.index(body.startIndex, offsetBy: bodySent)
        body.copyBytes(
            to: UnsafeMutableRawBufferPointer(start: buffer, count: count).bindMemory(to: UInt8.self),
            from: start..<body.index(start, offsetBy: count))
        bodySent += count
        return gate.sent(count) ? count : nil
    }

    /// A piece of a body: the answer's once its head is decided (a followed redirect's body
    /// is not the answer's, and libcurl does not hand it on).
    fileprivate func bodyPiece(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard gate.hasHead else {
            // A body before any head was decided on: the answer of a redirect libcurl does not
            // follow (a 3xx it will not act on): decide on it now.
            guard let lastRedirect, gate.head(lastRedirect) else { return false }
            return gate.body(bytes)
        }
        return gate.body(bytes)
    }
}

/// CURLOPT_HEADERFUNCTION: returning anything but the count given stops the transfer.
private let curlHeaderLine: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
    return transfer.headerLine(bytes) ? size * count : 0
}

/// CURLOPT_READFUNCTION: the count copied, 0 at the end, CURL_READFUNC_ABORT to stop.
private let curlRequestPiece: curl_read_callback = { buffer, size, count, context in
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.requestPiece(buffer, capacity: size * count) ?? Int(CURL_READFUNC_ABORT)
}

/// CURLOPT_WRITEFUNCTION: as above.
private let curlBodyPiece: curl_write_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
    return transfer.bodyPiece(bytes) ? size * count : 0
}
#endif
