import CSQLite
import Foundation

/// How `.import` splits a file into fields: the separators `.mode`/`.separator` left
/// (or `--csv`/`--ascii` chose) and whether RFC 4180 quotes are honoured.
///
/// Get it from ``ShellOutputSettings/formatForImport(forcing:)`` (pass `.csv` for
/// `.import --csv`, `.ascii` for `--ascii`, nil otherwise): that applies the shell's checks and
/// side effects and sets ``emptyFirstFieldEndsRecord`` from the output mode as 3.40 does.
public struct ImportFormat: Equatable, Sendable {
    /// `csv`: quotes are honoured (the shell's csv reader, used for every mode but ascii);
    /// `ascii`: no quoting at all.
    public enum Quoting: Equatable, Sendable { case csv, ascii }

    public var quoting: Quoting
    public var columnSeparator: UInt8
    public var rowSeparator: UInt8
    /// True when the output mode is `ascii` (whatever the reader): the 3.40 shell then ends a
    /// record, without inserting it, when its first field is empty (blank lines are skipped).
    public var emptyFirstFieldEndsRecord: Bool

    public init(quoting: Quoting, columnSeparator: UInt8, rowSeparator: UInt8) {
        self.init(quoting: quoting, columnSeparator: columnSeparator, rowSeparator: rowSeparator,
                  emptyFirstFieldEndsRecord: quoting == .ascii)
    }

    public init(quoting: Quoting, columnSeparator: UInt8, rowSeparator: UInt8, emptyFirstFieldEndsRecord: Bool) {
        self.quoting = quoting
        self.columnSeparator = columnSeparator
        self.rowSeparator = rowSeparator
        self.emptyFirstFieldEndsRecord = emptyFirstFieldEndsRecord
    }

    /// `.import --csv`: ',' and '\n', quotes honoured.
    public static let csv = ImportFormat(quoting: .csv, columnSeparator: UInt8(ascii: ","), rowSeparator: UInt8(ascii: "\n"),
                                         emptyFirstFieldEndsRecord: false)
    /// `.import --ascii` (or `.mode ascii`): 0x1F and 0x1E, no quoting.
    public static let ascii = ImportFormat(quoting: .ascii, columnSeparator: 0x1F, rowSeparator: 0x1E,
                                           emptyFirstFieldEndsRecord: true)
}

/// One `.import` command, resolved: which file, into which table, with which format.
public struct ImportRequest: Sendable {
    /// The file to read (already resolved against the directory of the script naming it).
    public var file: URL
    /// The path shown in diagnostics (`food.csv:12: …`).
    public var displayPath: String
    /// The table: created from the file's first record (TEXT columns) when it does not exist.
    public var table: String
    /// `--schema S` (`main`, `temp`, an attached name), nil for SQLite's usual lookup.
    public var schema: String?
    /// `--skip N`: records skipped at the start of the file (a quoted field may span lines).
    public var skip: Int
    public var format: ImportFormat

    public init(file: URL, displayPath: String, table: String, schema: String? = nil, skip: Int = 0, format: ImportFormat) {
        self.file = file
        self.displayPath = displayPath
        self.table = table
        self.schema = schema
        self.skip = skip
        self.format = format
    }
}

/// What an import did.
public struct ImportResult: Equatable, Sendable {
    public var rowsInserted: Int
    public var createdTable: Bool
    public var warnings: Int

    public init(rowsInserted: Int, createdTable: Bool, warnings: Int) {
        self.rowsInserted = rowsInserted
        self.createdTable = createdTable
        self.warnings = warnings
    }
}

/// Runs `.import` exactly as the sqlite3 3.40 shell does, but stops at the first error.
///
/// Same splitting and quoting as the shell's readers, same line numbers in warnings, a missing
/// table created from the header row, values bound as text (column affinity converts them),
/// short rows filled with NULL and long rows cut with the shell's warnings, `BEGIN`/`COMMIT`
/// around the rows when the connection is in autocommit.
public enum CSVImporter {
    /// Imports `request.file` into `db`. Warnings (short/long rows, unescaped quotes, renamed
    /// columns) go to `diagnostics`, located at the line where the record starts;
    /// errors (missing file, unterminated quote, failed insert) are thrown as ``Diagnostic``.
    ///
    /// Errors about the file's content carry `request.displayPath` and a line; errors about the
    /// command itself (the file cannot be opened, `|command` refused, the table cannot be
    /// queried) carry no location, so the caller can point at the script's `.import` line.
    /// On error, the rows this import inserted are rolled back (a table it created stays).
    /// `progress` is called now and then with (bytes read, total bytes).
    public static func run(
        _ request: ImportRequest,
        into db: OpaquePointer,
        diagnostics: DiagnosticHandler,
        progress: ((Int64, Int64) -> Void)? = nil
    ) throws -> ImportResult {
        try withoutActuallyEscaping(diagnostics) { handler in
            var session = try ImportSession(request: request, db: db, diagnostics: handler, progress: progress)
            defer { session.finish() }
            return try session.run()
        }
    }
}
