import Foundation
import XCTest

/// The result of running one of the package's executables.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the package's built executables (`dbgen`, `versionstamp`) and system tools
/// (`sqlite3`, `git`, `python3`) for end-to-end tests.
enum CommandRunner {
    /// The directory holding the built products (next to the `.xctest` bundle).
    static var productsDirectory: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of a built executable of this package.
    static func product(_ name: String) -> URL {
        productsDirectory.appendingPathComponent(name)
    }

    /// Finds a tool on PATH, or nil.
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, optional stdin, in `directory`, with extra environment.
    @discardableResult
    static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:],
        removingEnvironment: [String] = [],
        stdin: String? = nil
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for key in removingEnvironment { env[key] = nil }
        env.merge(environment) { _, new in new }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Runs one of this package's executables.
    @discardableResult
    static func runProduct(
        _ name: String,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:],
        removingEnvironment: [String] = []
    ) throws -> CommandResult {
        try run(product(name).path, arguments, in: directory, environment: environment,
                removingEnvironment: removingEnvironment)
    }
}

/// Holds bytes read on another thread; written once before `DispatchGroup.wait` returns.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// A fresh temporary directory, removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase, name: String = "shipyard") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
