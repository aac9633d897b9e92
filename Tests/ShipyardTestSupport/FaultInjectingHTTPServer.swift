// A test server: the URL it builds from 127.0.0.1, its port and a path is always one, and a
// request head is parsed only once its end was found.
// swift-format-ignore-file: NeverForceUnwrap

import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server of the tests' own on 127.0.0.1 (plain sockets, a thread per connection,
/// `Connection: close` on every answer) that answers each path from a script: the faults a
/// client must survive and nginx will not produce (a body cut short, a reset mid-file, 404 / 500
/// / 503 with Retry-After, a trickle past a timeout, a wrong Content-Length, more bytes than
/// declared, a file changed between two ranges, redirects).
///
/// It counts requests and bytes sent, so a test can assert "at most N requests". Stopped by
/// ``stop()`` or when released.
public final class FaultInjectingHTTPServer: @unchecked Sendable {
    /// One request as the server read it.
    public struct Request: Sendable {
        /// `GET`, `HEAD`...
        public var method: String
        /// The path requested (with its query, if any).
        public var path: String
        /// The header fields, names in lowercase.
        public var headers: [String: String]
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var scripts: [String: [ScriptedResponse]] = [:]
    private var recorded: [Request] = []
    private var sentBytes = 0
    private var stopped = false
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// Starts a server on a free port of 127.0.0.1 with no script (every path is a 404).
    public init() throws {
        (listener, port) = try LoopbackSocket.listen()
        let thread = Thread { [unowned self] in acceptLoop() }
        thread.name = "FaultInjectingHTTPServer.accept"
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path.hasPrefix("/") ? String(path.dropFirst()) : path)")!
    }

    /// Answers the requests for `path` with `responses` in order, the last one to every request
    /// after them (an empty script: 404).
    public func script(_ path: String, _ responses: ScriptedResponse...) {
        let path = path.hasPrefix("/") ? path : "/" + path
        lock.withLock { scripts[path] = responses }
    }

    /// Every request received so far, in order.
    public var requests: [Request] { lock.withLock { recorded } }

    /// How many requests were received for `path` (every path: nil).
    public func requestCount(_ path: String? = nil) -> Int {
        let path = path.map { $0.hasPrefix("/") ? $0 : "/" + $0 }
        return requests.filter { path == nil || $0.path == path }.count
    }

    /// The bytes written to clients so far (status lines, headers and bodies).
    public var bytesSent: Int { lock.withLock { sentBytes } }

    /// Stops accepting connections and ends the transfers under way; waits for the listener.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard wasRunning else { return }
        acceptLoopEnded.wait()
        close(listener)
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while !isStopped {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let thread = Thread { [self] in serve(connection) }
            thread.name = "FaultInjectingHTTPServer.connection"
            thread.start()
        }
    }

    // MARK: One connection

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else {
            close(connection)
            return
        }
        let response = lock.withLock { () -> ScriptedResponse in
            recorded.append(request)
            let route = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
            guard var script = scripts[route], !script.isEmpty else { return .status(404) }
            let next = script.count > 1 ? script.removeFirst() : script[0]
            scripts[route] = script
            return next
        }
        answer(request, with: response, on: connection)
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Data("\r\n\r\n".utf8)
        while received.range(of: end) == nil {
            guard received.count < 65536 else { return nil }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        let head = String(decoding: received[..<received.range(of: end)!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }

    private func answer(_ request: Request, with response: ScriptedResponse, on connection: Int32) {
        switch response {
        case .file(let data, let etag, let honoursIfRange):
            let (head, body) = fileAnswer(request, data, etag: etag, honoursIfRange: honoursIfRange)
            _ = send(head, connection) && send(body, connection)
            close(connection)
        case .cutShort(let data, let etag, let after), .reset(let data, let etag, let after):
            let (head, body) = fileAnswer(request, data, etag: etag, honoursIfRange: true)
            _ = send(head, connection) && send(body.prefix(after), connection)
            if case .reset = response {
                usleep(50_000) // let the client read the bytes before the reset discards them
                LoopbackSocket.reset(connection)
            } else {
                close(connection)
            }
        case .trickle(let data, let etag, let bytesPerChunk, let interval):
            let (head, body) = fileAnswer(request, data, etag: etag, honoursIfRange: true)
            guard send(head, connection) else {
                close(connection)
                return
            }
            var offset = body.startIndex
            while offset < body.endIndex, !isStopped {
                let next = min(offset + bytesPerChunk, body.endIndex)
                guard send(body[offset..<next], connection) else { break }
                offset = next
                Thread.sleep(forTimeInterval: interval)
            }
            close(connection)
        case .status(let status, let retryAfter):
            let body = Data("status \(status)\n".utf8)
            var fields = ["Content-Type: text/plain", "Content-Length: \(body.count)"]
            if let retryAfter { fields.append("Retry-After: \(retryAfter)") }
            _ = send(Self.head(status, fields), connection) && send(body, connection)
            close(connection)
        case .body(let data, let declaredLength):
            let fields = declaredLength.map { ["Content-Length: \($0)"] } ?? []
            _ =
                send(Self.head(200, fields + ["Content-Type: application/octet-stream"]), connection)
                && send(data, connection)
            close(connection)
        case .endless(let count, let declaredLength):
            let fields = declaredLength.map { ["Content-Length: \($0)"] } ?? []
            var left = count
            let piece = Data(count: 65_536)
            var sending = send(Self.head(200, fields + ["Content-Type: application/octet-stream"]), connection)
            while sending, left > 0, !isStopped {
                let next = piece.prefix(Int(min(left, Int64(piece.count))))
                sending = send(next, connection)
                left -= Int64(next.count)
            }
            close(connection)
        case .chunked(let count):
            var left = count
            let piece = Data(count: 65_536)
            var sending = send(Self.head(200, ["Transfer-Encoding: chunked"]), connection)
            while sending, left > 0, !isStopped {
                let next = piece.prefix(Int(min(left, Int64(piece.count))))
                sending = send(
                    Data(String(next.count, radix: 16).utf8) + Data("\r\n".utf8) + next + Data("\r\n".utf8), connection)
                left -= Int64(next.count)
            }
            if sending { _ = send(Data("0\r\n\r\n".utf8), connection) }
            close(connection)
        case .encoded(let data, let encoding):
            let fields = [
                "Content-Encoding: \(encoding)", "Content-Length: \(data.count)", "Content-Type: application/json",
            ]
            _ = send(Self.head(200, fields), connection) && send(data, connection)
            close(connection)
        case .silent(let sendsHead):
            if sendsHead { _ = send(Self.head(200, ["Content-Length: 1000"]), connection) }
            waitUntilClosed(connection)
            close(connection)
        case .redirect(let status, let path):
            let fields = ["Location: \(url(path).absoluteString)", "Content-Length: 0"]
            _ = send(Self.head(status, fields), connection)
            close(connection)
        }
    }

    /// Returns once the client has closed `connection` (or reset it) or the server stops.
    private func waitUntilClosed(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isStopped {
            var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { return }
        }
    }

    /// The head and body a static file server sends for `request`: 200, 206 or 416.
    private func fileAnswer(
        _ request: Request, _ data: Data, etag: String,
        honoursIfRange: Bool
    ) -> (head: Data, body: Data) {
        var fields = ["ETag: \(etag)", "Accept-Ranges: bytes", "Content-Type: application/octet-stream"]
        if request.headers["if-none-match"] == etag { return (Self.head(304, ["ETag: \(etag)"]), Data()) }
        let ifRangeHolds = !honoursIfRange || request.headers["if-range"].map { $0 == etag } ?? true
        guard let range = request.headers["range"], ifRangeHolds, range.hasPrefix("bytes=") else {
            return (Self.head(200, fields + ["Content-Length: \(data.count)"]), data)
        }
        let bounds = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), first < data.count else {
            let head = Self.head(416, fields + ["Content-Range: bytes */\(data.count)", "Content-Length: 0"])
            return (head, Data())
        }
        let last = min(Int(bounds[1]) ?? data.count - 1, data.count - 1)
        fields += ["Content-Range: bytes \(first)-\(last)/\(data.count)", "Content-Length: \(last - first + 1)"]
        return (Self.head(206, fields), data.subdata(in: first..<(last + 1)))
    }

    private static func head(_ status: Int, _ fields: [String]) -> Data {
        let reasons = [
            200: "OK", 206: "Partial Content", 301: "Moved Permanently", 302: "Found",
            304: "Not Modified", 307: "Temporary Redirect", 404: "Not Found", 416: "Range Not Satisfiable",
            500: "Internal Server Error", 503: "Service Unavailable",
        ]
        let lines = ["HTTP/1.1 \(status) \(reasons[status] ?? "Status")"] + fields + ["Connection: close", "", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    private func send<Bytes: DataProtocol>(_ bytes: Bytes, _ connection: Int32) -> Bool {
        let data = Data(bytes)
        guard LoopbackSocket.send(connection, data) else { return false }
        lock.withLock { sentBytes += data.count }
        return true
    }
}
