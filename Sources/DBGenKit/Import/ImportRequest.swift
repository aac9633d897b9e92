import Foundation

/// One `.import` command, resolved: which file, into which table, with which format.
struct ImportRequest: Sendable {
    /// The file to read (already resolved against the directory of the script naming it).
    var file: URL
    /// The path shown in diagnostics (`food.csv:12: …`).
    var displayPath: String
    /// The table: created from the file's first record (TEXT columns) when it does not exist.
    var table: String
    /// `--schema S` (`main`, `temp`, an attached name), nil for SQLite's usual lookup.
    var schema: String?
    /// `--skip N`: records skipped at the start of the file (a quoted field may span lines).
    var skip: Int
    var format: ImportFormat

    init(file: URL, displayPath: String, table: String, schema: String? = nil, skip: Int = 0, format: ImportFormat) {
        self.file = file
        self.displayPath = displayPath
        self.table = table
        self.schema = schema
        self.skip = skip
        self.format = format
    }
}
