import ArgumentParser
import DBGenKit
import Foundation
import LayeredDatabase

/// How every `dbgen` subcommand talks to people on standard error, as swift-format's
/// `StderrDiagnosticPrinter` does for it: errors and warnings compiler-style
/// (`PATH:LINE[:COL]: error: MESSAGE`, `PATH: error: MESSAGE` for a whole file, `dbgen: error:
/// MESSAGE` with no place), so editors and Xcode jump to them, and the build's one-line notes.
///
/// A failing subcommand throws what ``fail(_:status:)`` returns: exit status 1 (`check`: 2);
/// usage errors are swift-argument-parser's (64).
struct DiagnosticPrinter {
    /// Runs before each line is written (the build's progress bar erases itself).
    var beforeWriting: () -> Void = {}

    /// Writes a warning or an error.
    func print(_ diagnostic: Diagnostic) {
        write(diagnostic.description)
    }

    /// Writes `error` as a diagnostic and returns the exit code the subcommand throws.
    func fail(_ error: Error, status: Int32 = 1) -> ExitCode {
        print(Self.diagnostic(for: error))
        return ExitCode(status)
    }

    /// Writes a LayeredDatabase error at the file and line it names (`PATH[:LINE]: error:
    /// MESSAGE`), as `dbgen update` reports an install; `attach` keeps the `dbgen: error: PATH:
    /// MESSAGE` of ``fail(_:status:)``.
    func fail(located error: LayeredDatabaseError) -> ExitCode {
        guard let path = error.path else { return fail(error) }
        print(Diagnostic(.error, error.message, at: error.line.map { SourceLocation(path: path, line: $0) } ?? SourceLocation(file: path)))
        return ExitCode(1)
    }

    /// Writes a line that is not a diagnostic (`built food.sqlite: 2 tables, …`).
    func write(_ line: String) {
        beforeWriting()
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `error` as an error diagnostic, at the place it names.
    static func diagnostic(for error: Error) -> Diagnostic {
        switch error {
        case let error as DBGenError:
            return error.diagnostic
        default:
            return Diagnostic(.error, "\(error)")
        }
    }
}

