import CSQLite
import Foundation

/// How `.import` splits a file into fields: the separators `.mode`/`.separator` left
/// (or `--csv`/`--ascii` chose) and whether RFC 4180 quotes are honoured.
public struct ImportFormat: Equatable, Sendable {
    /// `csv`: quotes are honoured (the shell's csv reader, used for every mode but ascii);
    /// `ascii`: no quoting at all.
    public enum Quoting: Equatable, Sendable { case csv, ascii }

    public var quoting: Quoting
    public var columnSeparator: UInt8
    public var rowSeparator: UInt8

    public init(quoting: Quoting, columnSeparator: UInt8, rowSeparator: UInt8) {
        self.quoting = quoting
        self.columnSeparator = columnSeparator
        self.rowSeparator = rowSeparator
    }
}

/// One `.import` command, resolved: which file, into which table, with which format.
public struct ImportRequest: Sendable {
    /// The file to read (already resolved against the directory of the script naming it).
    public var file: URL
    /// The path shown in diagnostics (`food.csv:12: …`).
    public var displayPath: String
    public var table: String
    public var schema: String?
    /// `--skip N`: lines skipped at the start of the file.
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
public enum CSVImporter {
    /// Imports `request.file` into `db`. Warnings (short/long rows) go to `diagnostics`;
    /// errors (missing file, unterminated quote, failed insert) are thrown as ``Diagnostic``.
    /// `progress` is called now and then with (bytes read, total bytes).
    public static func run(
        _ request: ImportRequest,
        into db: OpaquePointer,
        diagnostics: DiagnosticHandler,
        progress: ((Int64, Int64) -> Void)? = nil
    ) throws -> ImportResult {
        throw Diagnostic.error("`.import` is not implemented yet")
    }
}
