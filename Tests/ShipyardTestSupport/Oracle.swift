import Foundation

/// An independent program whose answer a test compares with Shipyard's: the sqlite3 shell,
/// sqldiff, git, python3 (plistlib), make (depfiles), script (a terminal), strace (what a
/// process opens); and faketime, which runs a command at a shifted clock (a feed a year later).
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
    /// GNU make, which reads the depfiles dbgen writes.
    case make
    /// script(1) (util-linux), which runs a command with a terminal as its standard error.
    case script
    /// strace, which lists the system calls a command makes.
    case strace
    /// faketime (Debian's `faketime`, libfaketime), which runs a command with the clock moved
    /// (`faketime '+400 days' COMMAND`).
    case faketime

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

/// Thrown when an oracle ran but reported an error (exit status not 0).
public struct OracleFailed: Error, CustomStringConvertible {
    /// The oracle that failed.
    public var oracle: Oracle
    /// Its arguments.
    public var arguments: [String]
    /// What it printed and its status.
    public var result: ProcessResult
    /// The oracle, its status and its standard error.
    public var description: String {
        "\(oracle.rawValue) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderrText)"
    }
}

extension Oracle {
    /// Runs `arguments` and returns standard output; throws ``OracleFailed`` unless the
    /// oracle exits 0.
    public func output(_ arguments: [String], in directory: URL? = nil, stdin: String? = nil) throws -> String {
        let result = try run(arguments, in: directory, input: stdin.map { Data($0.utf8) })
        guard result.status == 0 else { throw OracleFailed(oracle: self, arguments: arguments, result: result) }
        return result.stdoutText
    }

    /// The sqlite3 shell run as `sqlite3 -batch -bail DATABASE < script`: its standard output.
    /// Throws ``OracleFailed`` when the shell reports an error.
    public static func sqlite3Script(_ database: String, _ script: String, in directory: URL? = nil) throws -> String {
        try Oracle.sqlite3.output(["-batch", "-bail", database], in: directory, stdin: script)
    }
}
