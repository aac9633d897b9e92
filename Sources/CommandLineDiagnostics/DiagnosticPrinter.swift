import ArgumentParser
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystemKit

/// How `dbgen` and `versionstamp` talk to people on standard error, the one place that writes
/// their errors and warnings: compiler-style lines (`PATH:LINE[:COL]: error: MESSAGE`, `PATH:
/// error: MESSAGE` for a whole file, `TOOL: error: MESSAGE` with no place), so editors and Xcode
/// jump to them, and the tools' one-line notes.
///
/// `ToolError` is the error type of the tool's library (`DBGenError`, `VersionStampError`),
/// whose `description` is already that line, place included; any other error is written as
/// `TOOL: error: MESSAGE`. Warnings are written by the tool from its library's rendering too,
/// through ``write(_:)``.
public struct DiagnosticPrinter<ToolError: Error & CustomStringConvertible> {
    /// The command's name, which stands for the place of an error that has none.
    public let tool: String
    /// Runs before each line is written (`dbgen build`'s progress bar erases itself).
    public var beforeWriting: () -> Void

    /// A printer for `tool`.
    public init(tool: String, beforeWriting: @escaping () -> Void = {}) {
        self.tool = tool
        self.beforeWriting = beforeWriting
    }

    /// Writes `line` and a newline to standard error.
    public func write(_ line: String) {
        beforeWriting()
        StandardStream.writeError(line + "\n")
    }

    /// The line that reports `error`: the library's own for a `ToolError`, else `TOOL: error:
    /// MESSAGE`.
    public func line(for error: Error) -> String {
        (error as? ToolError)?.description ?? "\(tool): error: \(error)"
    }

    /// Writes `error` and returns the exit code a subcommand throws for it (1, or `status`).
    public func fail(_ error: Error, status: Int32 = 1) -> ExitCode {
        write(line(for: error))
        return ExitCode(status)
    }
}
