import Foundation
import ShipyardTestSupport
import XCTest

/// The result of running a program, as text.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The versionstamp end-to-end tests' way of running programs, kept as a thin layer over
/// ShipyardTestSupport's ``ProcessRunner`` (one process runner for every test).
enum CommandRunner {
    /// The path of a built executable of this package.
    static func product(_ name: String) -> URL {
        URL(fileURLWithPath: BuiltProducts.path(name))
    }

    /// Finds a tool on PATH, or nil.
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments`, optional stdin, in `directory`, with extra environment.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], removingEnvironment: [String] = [], stdin: String? = nil
    ) throws -> CommandResult {
        let result = try ProcessRunner.run(executable, arguments, in: directory, environment: environment,
                                           removing: removingEnvironment, input: stdin.map { Data($0.utf8) })
        return CommandResult(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }

    /// Runs one of this package's executables.
    @discardableResult
    static func runProduct(
        _ name: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], removingEnvironment: [String] = []
    ) throws -> CommandResult {
        try run(BuiltProducts.path(name), arguments, in: directory, environment: environment,
                removingEnvironment: removingEnvironment)
    }
}

/// A fresh temporary directory, removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase, name: String = "shipyard") throws -> URL {
    try TemporaryDirectory(name, removedAfter: test).url
}
