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
import SQLiteCore

/// Runs `.import` exactly as the sqlite3 3.40 shell does, but stops at the first error.
///
/// Same splitting and quoting as the shell's readers, same line numbers in warnings, a missing
/// table created from the header row, values bound as text (column affinity converts them),
/// short rows filled with NULL and long rows cut with the shell's warnings, `BEGIN`/`COMMIT`
/// around the rows when the connection is in autocommit.
enum CSVImporter {
    /// Imports `request.file` through `connection`. Warnings (short/long rows, unescaped quotes, renamed
    /// columns) go to `diagnostics`, located at the line where the record starts;
    /// errors (missing file, unterminated quote, failed insert) are thrown as ``DBGenError``.
    ///
    /// Errors about the file's content carry `request.displayPath` and a line; errors about the
    /// command itself (the file cannot be opened, `|command` refused, the table cannot be
    /// queried) carry no location, so the caller can point at the script's `.import` line.
    /// On error, the rows this import inserted are rolled back (a table it created stays).
    /// `progress` is called now and then.
    static func run(
        _ request: ImportRequest,
        into connection: Connection,
        diagnostics: DiagnosticHandler,
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportResult {
        try withoutActuallyEscaping(diagnostics) { handler in
            var session = try ImportSession(
                request: request, connection: connection, diagnostics: handler,
                progress: progress)
            defer { session.finish() }
            return try session.run()
        }
    }
}

/// One `.import` command, resolved: which file, into which table, with which format.
struct ImportRequest: Sendable {
    /// The file to read (already resolved against the directory of the script naming it).
    var file: URL
    /// The path shown in diagnostics (`food.csv:12: …`).
    var displayPath: String
    /// The table: created from the file's first record (TEXT columns) when it does not exist.
    var table: String
    /// `--schema S` (`main`, `temp`, an attached name), nil for SQLite's usual lookup.
    var schema: String? = nil
    /// `--skip N`: records skipped at the start of the file (a quoted field may span lines).
    var skip: Int = 0
    var format: ImportFormat
}

/// What an import did.
struct ImportResult: Equatable, Sendable {
    var rowsInserted: Int
    var createdTable: Bool
    var warnings: Int
    /// Of `rowsInserted`, the rows dbgen laid out in the table's pages itself (``ImportPageImport``).
    var rowsWrittenAsPages = 0
}
