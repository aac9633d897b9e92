import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What ``SyncFaultProxy`` does with one request.
public enum SyncFault: String, CaseIterable, Sendable {
    /// Forwarded, the answer relayed.
    case none
    /// The connection is closed before anything reaches the server.
    case dropRequest
    /// Forwarded and answered by the server, then the connection is closed without the answer
    /// (the server applied the batch: the retry must be applied once).
    case dropAnswer
    /// Forwarded twice, one after the other; the second answer is relayed.
    case duplicate
    /// Half the body is forwarded (its full length announced), then the connection is closed.
    case cutRequest
    /// Forwarded; the answer's head and half its body are relayed, then the connection is closed.
    case cutAnswer
}

/// An HTTP/1.1 proxy on 127.0.0.1 between devices and a sync server that injects a fault chosen
/// per request (``SyncFault``): one request per connection, each forwarded on a new connection to
/// the upstream port (which may change when the server is restarted, or be down: then the
/// device's connection is closed). Threads and blocking sockets, no event loop of its own.
public final class SyncFaultProxy: @unchecked Sendable {
    /// The port the proxy listens on.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var upstream: Int
    private var chooser: () -> SyncFault
    private var counts: [SyncFault: Int] = [:]
    private var stopped = false

    /// The base URL devices use, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A proxy to `upstreamPort` that asks `chooser` (called under the proxy's lock) for the fault
    /// of each request.
    public init(upstreamPort: Int, chooser: @escaping () -> SyncFault) throws {
        upstream = upstreamPort
        self.chooser = chooser
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(listener, pointer, length) == 0, listen(listener, 64) == 0 else { return -1 }
                return getsockname(listener, pointer, &length)
            }
        }
        guard bound == 0 else {
            close(listener)
            port = 0
            throw TestSupportError("the fault proxy could not listen on 127.0.0.1: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Points the proxy at a (restarted) server's port.
    public func setUpstream(port: Int) { lock.withLock { upstream = port } }

    /// Replaces the fault chooser.
    public func setChooser(_ chooser: @escaping () -> SyncFault) { lock.withLock { self.chooser = chooser } }

    /// How many requests met each fault so far.
    public var faultCounts: [SyncFault: Int] { lock.withLock { counts } }

    /// Stops accepting connections.
    public func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in
                serve(client)
                close(client)
            }
        }
    }

    private func serve(_ client: Int32) {
        Self.setTimeout(client)
        guard let request = Self.readMessage(client) else { return }
        let (fault, port) = lock.withLock { () -> (SyncFault, Int) in
            let fault = chooser()
            counts[fault, default: 0] += 1
            return (fault, upstream)
        }
        let forwarded = Self.closingConnection(request.head) + request.body
        switch fault {
        case .dropRequest:
            return
        case .cutRequest:
            guard let server = Self.connect(port) else { return }
            defer { close(server) }
            let cut = Self.closingConnection(request.head).count + request.body.count / 2
            Self.write(server, Array(forwarded.prefix(cut)))
            shutdown(server, Int32(SHUT_WR))
            _ = Self.readMessage(server)
        case .none, .dropAnswer, .duplicate, .cutAnswer:
            guard var answer = Self.exchange(forwarded, port: port) else { return }
            if fault == .duplicate {
                guard let second = Self.exchange(forwarded, port: port) else { return }
                answer = second
            }
            switch fault {
            case .dropAnswer: return
            case .cutAnswer: Self.write(client, answer.head + answer.body.prefix(answer.body.count / 2))
            default: Self.write(client, answer.head + answer.body)
            }
        }
    }

    // MARK: Sockets

    private struct Message {
        var head: [UInt8]
        var body: [UInt8]
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func setTimeout(_ fd: Int32) {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func connect(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        setTimeout(fd)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends `bytes` on a new connection to `port` and reads the answer (nil: no whole answer).
    private static func exchange(_ bytes: [UInt8], port: Int) -> Message? {
        guard let server = connect(port) else { return nil }
        defer { close(server) }
        write(server, bytes)
        return readMessage(server, answer: true)
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads one HTTP message (head and a `Content-Length` body); nil when the peer closed or
    /// stalled first.
    /// An answer without `Content-Length` (`answer`) ends when the server closes the connection.
    private static func readMessage(_ fd: Int32, answer: Bool = false) -> Message? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var length: Int?
        while true {
            if let end = headEnd, let length, data.count >= end + length {
                return Message(head: Array(data[..<end]), body: Array(data[end..<(end + length)]))
            }
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got == 0, answer, let end = headEnd, length == nil {
                return Message(head: Array(data[..<end]), body: Array(data[end...]))
            }
            if got <= 0 { return nil }
            data.append(contentsOf: buffer[..<got])
            if headEnd == nil, let range = findHeadEnd(data) {
                headEnd = range
                if !answer { length = 0 }
                let head = String(decoding: data[..<range], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
    }

    private static func findHeadEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4)
        where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// `head` with its `Connection` field replaced by `Connection: close` (one request per
    /// connection upstream).
    private static func closingConnection(_ head: [UInt8]) -> [UInt8] {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        lines.removeAll { $0.lowercased().hasPrefix("connection:") }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}
