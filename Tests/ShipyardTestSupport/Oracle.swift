import Foundation

/// An independent program whose answer a test compares with Shipyard's: the sqlite3 shell,
/// sqldiff, git, python3 (plistlib).
///
/// `scripts/setup.sh` installs every oracle, so a missing one is a broken set-up: asking for
/// it throws ``OracleMissing`` and the test fails. It never skips.
public enum Oracle: String, CaseIterable, Sendable {
    /// The sqlite3 command-line shell (Debian's `sqlite3`).
    case sqlite3
    /// sqldiff (Debian's `sqlite3-tools`).
    case sqldiff
    /// The git command-line tool.
    case git
    /// python3, whose plistlib reads and writes plists.
    case python3

    /// The oracle's absolute path, found on `PATH`.
    public func path() throws -> String {
        let search = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in search.split(separator: ":") {
            let candidate = "\(directory)/\(rawValue)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw OracleMissing(oracle: self)
    }

    /// Runs the oracle with `arguments`.
    @discardableResult
    public func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        input: Data? = nil
    ) throws -> ProcessResult {
        try ProcessRunner.run(try path(), arguments, in: directory, environment: environment, input: input)
    }

    /// Runs the oracle with `stdin` as its standard input.
    @discardableResult
    public func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String
    ) throws -> ProcessResult {
        try run(arguments, in: directory, environment: environment, input: Data(stdin.utf8))
    }
}

/// Thrown when an oracle is not installed: the test that needed it fails.
public struct OracleMissing: Error, CustomStringConvertible {
    /// The missing program.
    public var oracle: Oracle
    /// What to do about it.
    public var description: String {
        "the test oracle '\(oracle.rawValue)' is not installed; run scripts/setup.sh (it installs every oracle)"
    }
}
