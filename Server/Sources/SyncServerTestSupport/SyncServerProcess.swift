import Foundation

/// `shipyard-sync-server` run as a process on 127.0.0.1 and a free port, for tests that kill it
/// (`kill -9` mid-request) and start it again.
public final class SyncServerProcess: @unchecked Sendable {
    /// The process.
    public let process: Process
    /// The port it listens on.
    public let port: Int
    /// Everything it printed on standard error so far is in this file.
    public let errorLog: String

    /// The base URL, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts `executable` (the built `shipyard-sync-server`) with `arguments` and
    /// `--listen 127.0.0.1:0`, and waits (up to `timeout` seconds) until it says where it listens.
    public init(executable: String, arguments: [String], timeout: Double = 60) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + ["--listen", "127.0.0.1:0"]
        errorLog = NSTemporaryDirectory() + "/shipyard-sync-server-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: errorLog, contents: nil)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: errorLog)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let found = PortBox()
        let ready = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var text = ""
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if found.port == nil, let range = text.range(of: "listening on "),
                    let newline = text[range.upperBound...].firstIndex(of: "\n")
                {
                    let address = text[range.upperBound..<newline]
                    found.port = address.split(separator: ":").last.flatMap { Int($0) }
                    ready.signal()
                }
            }
            ready.signal()
        }
        _ = ready.wait(timeout: .now() + timeout)
        guard let port = found.port else {
            process.terminate()
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            throw TestSupportError("shipyard-sync-server did not start: \(log)")
        }
        self.port = port
    }

    /// Ends the process with SIGKILL (`kill -9`): no shutdown of any kind.
    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Ends the process with SIGTERM (a graceful shutdown) and waits for it.
    public func terminate() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit {
        if process.isRunning { kill9() }
        try? FileManager.default.removeItem(atPath: errorLog)
    }

    private final class PortBox: @unchecked Sendable {
        var port: Int?
    }
}
