// A test endpoint: the URL it builds from 127.0.0.1 and its port is always one.
// swift-format-ignore-file: NeverForceUnwrap
import Foundation

/// A sync endpoint of python3's own `http.server` (an HTTP stack other than the one under test)
/// on 127.0.0.1: it records each POST's path, headers and body in its directory
/// (`request-N.json`, `request-N.body`) and answers with `answer-N.bin` (else `answer.bin`)
/// as `application/x-shipyard-sync`, or with the status in `status-N` and a text reason.
public final class PythonSyncEndpoint {
    /// Where requests are recorded and answers read.
    public let directory: TemporaryDirectory
    /// The port it listens on, on 127.0.0.1.
    public private(set) var port = 0
    private var process: Process?

    private static let program = #"""
        import http.server, json, os, socketserver, sys
        root = sys.argv[1]
        count = [0]
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def do_POST(self):
                n = count[0]; count[0] += 1
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with open(os.path.join(root, "request-%d.body" % n), "wb") as f: f.write(body)
                with open(os.path.join(root, "request-%d.json" % n), "w") as f:
                    json.dump({"method": "POST", "path": self.path, "headers": dict(self.headers.items())}, f)
                status_file = os.path.join(root, "status-%d" % n)
                if os.path.exists(status_file):
                    status = int(open(status_file).read())
                    reply, kind = b"sync: error: refused by the test\n", "text/plain; charset=utf-8"
                else:
                    status = 200
                    name = os.path.join(root, "answer-%d.bin" % n)
                    reply = open(name if os.path.exists(name) else os.path.join(root, "answer.bin"), "rb").read()
                    kind = "application/x-shipyard-sync"
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(reply)))
                self.send_header("Shipyard-Sync-Clock", "1800000000000")
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(reply)
        server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
        with open(os.path.join(root, "port.tmp"), "w") as f: f.write(str(server.server_address[1]))
        os.rename(os.path.join(root, "port.tmp"), os.path.join(root, "port"))
        server.serve_forever()
        """#

    /// Starts the server; returns once it listens.
    public init() throws {
        directory = try TemporaryDirectory("python-sync-endpoint")
        process = try ProcessRunner.start(try Oracle.python3.path(), ["-c", Self.program, directory.path])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOf: directory.url("port"), encoding: .utf8), let port = Int(text) {
                self.port = port
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the python3 endpoint did not start"])
    }

    deinit { stop() }

    /// Kills the server: SIGKILL, because a child started from a Swift concurrency thread
    /// inherits its blocked signals (SIGTERM would be ignored, and the wait would never end).
    public func stop() {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        process = nil
    }

    /// `http://127.0.0.1:PORT/`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! } // a literal URL with a port: valid

    /// How many requests it has recorded.
    public var requestCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasPrefix("request-") && $0.hasSuffix(".json")
        }.count
    }

    /// The answer to every request without its own.
    public func answer(_ bytes: [UInt8]) throws { try Data(bytes).write(to: directory.url("answer.bin")) }

    /// The answer to request `index`.
    public func answer(_ index: Int, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: directory.url("answer-\(index).bin"))
    }

    /// Request `index` is refused with `status`.
    public func refuse(_ index: Int, status: Int) throws {
        try Data("\(status)".utf8).write(to: directory.url("status-\(index)"))
    }

    /// The body of request `index`.
    public func body(_ index: Int) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.url("request-\(index).body")))
    }

    /// The method, path and headers (names as sent) of request `index`.
    public func head(_ index: Int) throws -> (method: String, path: String, headers: [String: String]) {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url("request-\(index).json")))
        let fields = object as? [String: Any] ?? [:]
        let headers = (fields["headers"] as? [String: String] ?? [:]).reduce(into: [String: String]()) {
            $0[$1.key.lowercased()] = $1.value
        }
        return (fields["method"] as? String ?? "", fields["path"] as? String ?? "", headers)
    }
}
