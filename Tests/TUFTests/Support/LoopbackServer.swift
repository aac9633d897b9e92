import Foundation
import ShipyardTestSupport
import XCTest

/// python3's http.server on 127.0.0.1 and a free port, serving a directory, plus `/endless` (a body without
/// a length, 50 MB: endless to a client capped far below) and `/status/N` (an empty answer of status N).
/// Stopped when the test ends.
final class LoopbackServer {
    let port: Int
    private let process: Process

    private static let script = """
        import functools, http.server, sys
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass
            def do_GET(self):
                if self.path == "/endless":
                    self.send_response(200)
                    self.end_headers()
                    try:
                        for _ in range(800):
                            self.wfile.write(b"x" * 65536)
                    except OSError:
                        return
                if self.path.startswith("/status/"):
                    self.send_response(int(self.path[len("/status/"):]))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                super().do_GET()
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
        with open(sys.argv[2] + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        import os
        os.rename(sys.argv[2] + ".tmp", sys.argv[2])
        server.serve_forever()
        """

    init(serving directory: URL, test: XCTestCase) throws {
        let scratch = try TemporaryDirectory("loopback-server", removedAfter: test)
        let portFile = scratch.url("port")
        process = try ProcessRunner.start(
            try Oracle.python3.path(), ["-c", Self.script, directory.path, portFile.path])
        let process = process
        test.addTeardownBlock {
            process.terminate()
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: portFile.path) {
            guard process.isRunning, Date() < deadline else { throw ServerDidNotStart() }
            Thread.sleep(forTimeInterval: 0.05)
        }
        port = Int(try String(contentsOf: portFile, encoding: .utf8))!
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    struct ServerDidNotStart: Error {}
}
