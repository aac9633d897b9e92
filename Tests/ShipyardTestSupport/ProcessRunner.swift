import Foundation

/// What a finished child process left: its exit status and everything it wrote.
public struct ProcessResult: Sendable {
    /// The exit status (or 128 + signal number when a signal ended it).
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: Data
    /// Everything written to standard error.
    public var stderr: Data

    /// Standard output decoded as UTF-8.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error decoded as UTF-8.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// The one way the tests start a process: both pipes are read concurrently (a child that
/// fills one pipe while the test waits on the other would otherwise deadlock), standard
/// input is fed and closed, and the environment can be extended or pruned.
public enum ProcessRunner {
    /// Runs `executable` (an absolute path) with `arguments` and waits for it.
    ///
    /// - Parameters:
    ///   - directory: The working directory; the test's own when nil.
    ///   - environment: Variables added to (or replacing those of) the test's environment.
    ///   - removing: Variables removed from the inherited environment.
    ///   - input: Bytes written to the child's standard input, which is then closed.
    @discardableResult
    public static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:],
        removing: [String] = [],
        input: Data? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = childEnvironment(adding: environment, removing: removing)
        let output = Pipe(), errors = Pipe(), feed = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = feed
        try process.run()
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isError) in [(output, false), (errors, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.store(data, isError: isError)
                group.leave()
            }
        }
        if let input { feed.fileHandleForWriting.write(input) }
        try feed.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        let status =
            process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// Runs `executable` with `input` given as text.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], removing: [String] = [], stdin: String
    ) throws -> ProcessResult {
        try run(
            executable, arguments, in: directory, environment: environment, removing: removing,
            input: Data(stdin.utf8))
    }
}

extension ProcessRunner {
    /// The environment of every child: the test's, where `DBGEN_CACHE_DIR` (dbgen's fingerprint
    /// records) is a directory of this test run unless the test set it, so that no test writes
    /// into the user's `~/.cache/dbgen` (scripts/check-no-home-writes.sh checks); then
    /// `removing` removed and `adding` added (replacing).
    static func childEnvironment(adding: [String: String] = [:], removing: [String] = []) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        if merged["DBGEN_CACHE_DIR"] == nil { merged["DBGEN_CACHE_DIR"] = TestRunCache.path }
        for key in removing { merged[key] = nil }
        merged.merge(adding) { _, new in new }
        return merged
    }

    /// Starts `executable` and returns at once, for tests that signal or race processes:
    /// standard input and output are the null device, standard error too unless `errors` is given
    /// (then read it concurrently with waiting, or the child may block on a full pipe).
    public static func start(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, errors: Pipe? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = childEnvironment()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// The two streams, each written once by its reader thread before the group is left.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var stdout = Data()
    private(set) var stderr = Data()

    func store(_ data: Data, isError: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isError { stderr = data } else { stdout = data }
    }
}

extension ProcessRunner {
    /// Runs `executable` with standard output and standard error going to ONE file, so that
    /// what it prints keeps its order (rows and the errors between them), and returns that
    /// text. The child is killed, and this throws, when it runs longer than `timeout` seconds.
    public static func runInterleaved(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        input: Data, timeout: TimeInterval = 120
    ) throws -> (status: Int32, output: String) {
        let scratch = try TemporaryDirectory("interleaved")
        let inputFile = try scratch.write("input", input)
        let outputFile = try scratch.write("output", Data())
        let inHandle = try FileHandle(forReadingFrom: inputFile)
        let outHandle = try FileHandle(forWritingTo: outputFile)
        defer { try? inHandle.close(); try? outHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = childEnvironment()
        process.standardInput = inHandle
        process.standardOutput = outHandle
        process.standardError = outHandle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw ProcessTimeout(executable: executable, seconds: timeout)
        }
        return (process.terminationStatus, String(decoding: try Data(contentsOf: outputFile), as: UTF8.self))
    }
}

/// Thrown when a child process outlives its time limit (it has been killed).
public struct ProcessTimeout: Error, CustomStringConvertible {
    /// The program that was killed.
    public var executable: String
    /// Its time limit.
    public var seconds: TimeInterval
    /// What happened.
    public var description: String { "\(executable) did not finish within \(Int(seconds)) s and was killed" }
}
