// A test server: the URL it builds from 127.0.0.1, its port and a path is always one.
// swift-format-ignore-file: NeverForceUnwrap

import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Debian's nginx (`/usr/sbin/nginx`, which scripts/setup.sh installs), run as the test's own
/// child process (`daemon off`, `master_process off`) on a free port of 127.0.0.1 only, with a
/// configuration generated in a temporary directory that also holds its pid file, logs and
/// temporary paths. It serves a directory as static files with nginx's defaults: byte ranges,
/// If-Range, a strong ETag and Last-Modified.
///
/// A missing nginx throws ``NginxMissing`` (the test fails; it never skips). Stopped by
/// ``stop()`` or when released.
public final class NginxServer {
    /// What nginx logs of one request (its access log in a format of this type's own).
    public struct LoggedRequest: Equatable, Sendable {
        /// The status nginx answered.
        public var status: Int
        /// The body bytes it sent.
        public var bodyBytesSent: Int
        /// The URI requested.
        public var uri: String
        /// The request's `Range` header ("" when absent).
        public var range: String
        /// The request's `If-Range` header ("" when absent).
        public var ifRange: String
    }

    /// Where Debian installs nginx.
    public static let executable = "/usr/sbin/nginx"

    /// The port it listens on, on 127.0.0.1.
    public private(set) var port: UInt16 = 0
    /// The directory it serves.
    public let root: URL
    private let directory: TemporaryDirectory
    private var process: Process?

    /// Starts nginx serving `root` (its files by their relative paths); `limitRate` (bytes per
    /// second, per response) slows it down so a test can interrupt a transfer; `locations` is
    /// written into the `server` block as it is (`location` blocks of a documented recipe).
    /// Returns once it accepts connections.
    public init(serving root: URL, limitRate: Int? = nil, locations: String = "") throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else { throw NginxMissing() }
        self.root = root
        directory = try TemporaryDirectory("shipyard-nginx")
        var lastError = ""
        for _ in 0..<5 { // a free port may be taken between choosing it and nginx binding it
            let port = try LoopbackSocket.freePort()
            try directory.write("nginx.conf", configuration(port: port, limitRate: limitRate, locations: locations))
            let process = try ProcessRunner.start(
                Self.executable,
                [
                    "-p", directory.path, "-c", directory.url("nginx.conf").path,
                    "-e", directory.url("error.log").path,
                ])
            if try waitUntilAccepting(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            lastError = (try? String(contentsOf: directory.url("error.log"), encoding: .utf8)) ?? ""
            if !lastError.contains("Address already in use") { break }
        }
        throw NginxFailed(errorLog: lastError)
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path.hasPrefix("/") ? String(path.dropFirst()) : path)")!
    }

    /// Stops nginx and waits for it to exit. SIGKILL: a child spawned from a test's thread
    /// inherits that thread's blocked signals, SIGTERM among them, and nginx with no master
    /// process never unblocks them; it only serves files, so nothing is lost.
    public func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The requests nginx has logged so far, in order.
    public func accessLog() -> [LoggedRequest] {
        let text = (try? String(contentsOf: directory.url("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let status = Int(fields[0]), let sent = Int(fields[1]) else { return nil }
            return LoggedRequest(
                status: status, bodyBytesSent: sent, uri: fields[2], range: fields[3],
                ifRange: fields[4])
        }
    }

    private func configuration(port: UInt16, limitRate: Int?, locations: String) -> String {
        let base = directory.path
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(base)/nginx.pid;
            error_log \(base)/error.log warn;
            events { worker_connections 64; }
            http {
                log_format shipyard escape=none '$status|$body_bytes_sent|$request_uri|$http_range|$http_if_range';
                access_log \(base)/access.log shipyard;
                client_body_temp_path \(base)/client_body;
                proxy_temp_path \(base)/proxy;
                fastcgi_temp_path \(base)/fastcgi;
                uwsgi_temp_path \(base)/uwsgi;
                scgi_temp_path \(base)/scgi;
                default_type application/octet-stream;
                sendfile off;
                \(limitRate.map { "limit_rate \($0);" } ?? "")
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
            \(locations)
                }
            }

            """
    }

    /// Waits up to 10 s for nginx to accept connections on `port`; false if it exited first.
    private func waitUntilAccepting(port: UInt16, process: Process) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if LoopbackSocket.accepts(port: port) { return true }
            if !process.isRunning { return false }
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw NginxFailed(errorLog: "nginx did not accept connections on 127.0.0.1:\(port) within 10 s")
    }
}

/// nginx is not installed: the test fails.
public struct NginxMissing: Error, CustomStringConvertible {
    public var description: String {
        "\(NginxServer.executable) is not installed; run scripts/setup.sh (it installs nginx)"
    }
}

/// nginx did not start; its error log says why.
public struct NginxFailed: Error, CustomStringConvertible {
    /// What nginx logged.
    public var errorLog: String
    public var description: String { "nginx did not start: \(errorLog)" }
}
