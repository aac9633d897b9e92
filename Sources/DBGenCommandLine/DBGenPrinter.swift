import ArgumentParser
import CommandLineDiagnostics
import DBGenKit
import LayeredDatabase

/// How every `dbgen` subcommand talks to people on standard error: `DBGenError`s and warnings
/// as DBGenKit renders them (`PATH:LINE[:COL]: error: MESSAGE`, `dbgen: error: MESSAGE` with
/// no place), and the build's one-line notes.
///
/// A failing subcommand throws what `fail(_:status:)` returns: exit status 1 (`check`: 2);
/// usage errors are swift-argument-parser's (64).
package typealias DBGenPrinter = DiagnosticPrinter<DBGenError>

extension DiagnosticPrinter where ToolError == DBGenError {
    /// dbgen's printer; `beforeWriting` runs before each line.
    package init(beforeWriting: @escaping () -> Void = {}) {
        self.init(tool: "dbgen", beforeWriting: beforeWriting)
    }

    /// Writes a warning or an error.
    package func print(_ diagnostic: Diagnostic) {
        write(diagnostic.description)
    }

    /// Writes a LayeredDatabase error at the file and line it names (`PATH[:LINE]: error:
    /// MESSAGE`), as `dbgen update` reports an install; `attach` keeps the `dbgen: error: PATH:
    /// MESSAGE` of `fail(_:status:)`.
    package func fail(located error: LayeredDatabaseError) -> ExitCode {
        guard let path = error.path else { return fail(error) }
        let location = error.line.map { SourceLocation(path: path, line: $0) } ?? SourceLocation(file: path)
        print(Diagnostic(.error, error.message, at: location))
        return ExitCode(1)
    }
}
