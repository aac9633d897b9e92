/// How `.import` splits a file into fields: the separators `.mode`/`.separator` left
/// (or `--csv`/`--ascii` chose) and whether RFC 4180 quotes are honoured.
///
/// Get it from ``ShellOutputSettings/formatForImport(forcing:)`` (pass `.csv` for
/// `.import --csv`, `.ascii` for `--ascii`, nil otherwise): that applies the shell's checks and
/// side effects and sets ``emptyFirstFieldEndsRecord`` from the output mode as 3.40 does.
struct ImportFormat: Equatable, Sendable {
    /// `csv`: quotes are honoured (the shell's csv reader, used for every mode but ascii);
    /// `ascii`: no quoting at all.
    enum Quoting: Equatable, Sendable { case csv, ascii }

    var quoting: Quoting
    var columnSeparator: UInt8
    var rowSeparator: UInt8
    /// True when the output mode is `ascii` (whatever the reader): the 3.40 shell then ends a
    /// record, without inserting it, when its first field is empty (blank lines are skipped).
    var emptyFirstFieldEndsRecord: Bool

    init(quoting: Quoting, columnSeparator: UInt8, rowSeparator: UInt8) {
        self.init(quoting: quoting, columnSeparator: columnSeparator, rowSeparator: rowSeparator,
                  emptyFirstFieldEndsRecord: quoting == .ascii)
    }

    init(quoting: Quoting, columnSeparator: UInt8, rowSeparator: UInt8, emptyFirstFieldEndsRecord: Bool) {
        self.quoting = quoting
        self.columnSeparator = columnSeparator
        self.rowSeparator = rowSeparator
        self.emptyFirstFieldEndsRecord = emptyFirstFieldEndsRecord
    }

    /// `.import --csv`: ',' and '\n', quotes honoured.
    static let csv = ImportFormat(quoting: .csv, columnSeparator: UInt8(ascii: ","), rowSeparator: UInt8(ascii: "\n"),
                                         emptyFirstFieldEndsRecord: false)
    /// `.import --ascii` (or `.mode ascii`): 0x1F and 0x1E, no quoting.
    static let ascii = ImportFormat(quoting: .ascii, columnSeparator: 0x1F, rowSeparator: 0x1E,
                                           emptyFirstFieldEndsRecord: true)
}
