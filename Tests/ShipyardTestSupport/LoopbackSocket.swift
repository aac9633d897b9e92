// Send() runs only while bytes remain, so the buffer has a base address.
// swift-format-ignore-file: NeverForceUnwrap

import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// TCP sockets on 127.0.0.1 only, for the test servers: nothing here listens on or connects to
/// any other address.
enum LoopbackSocket {
    /// A socket listening on 127.0.0.1 at `port` (0: a free one the system picks), and its port.
    static func listen(port: UInt16 = 0) throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackSocketError(call: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, systemListen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw LoopbackSocketError(call: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// A port on 127.0.0.1 that was free a moment ago (another process may take it before the
    /// caller binds it: retry on "address in use").
    static func freePort() throws -> UInt16 {
        let (descriptor, port) = try listen()
        close(descriptor)
        return port
    }

    /// Whether something accepts connections on 127.0.0.1 at `port`.
    static func accepts(port: UInt16) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// Writes all of `bytes`; false when the peer is gone (no SIGPIPE is raised).
    static func send(_ descriptor: Int32, _ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let sent = Glibc.send(
                    descriptor, buffer.baseAddress! + offset, buffer.count - offset,
                    Int32(MSG_NOSIGNAL))
                #else
                let sent = Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }

    /// Closes `descriptor` with a TCP reset instead of an orderly end (SO_LINGER with a zero
    /// timeout): the peer sees "connection reset by peer".
    static func reset(_ descriptor: Int32) {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
    }

    private static func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.listen(descriptor, backlog)
        #else
        Darwin.listen(descriptor, backlog)
        #endif
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A socket call of a test server failed.
struct LoopbackSocketError: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "127.0.0.1: \(call) failed: \(String(cString: strerror(code)))" }
}
