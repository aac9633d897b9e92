/// The part of the sqlite3 shell's state that `.mode` and `.separator` change and that
/// `.import` reads: the output mode and the column and row separators, in the order given.
///
/// It follows the sqlite3 3.40 shell: the initial state is `list` mode with `|` and `\n`;
/// each mode resets some separators (`csv` sets `,` and `\r\n`, `list` sets `|` and `\n`,
/// `tabs` sets only the column separator to a tab, `ascii` sets 0x1F and 0x1E, …);
/// `.separator` replaces them (at most 19 bytes each, backslash escapes resolved).
struct ShellOutputSettings: Equatable, Sendable {
    /// The shell's output modes (the values of `.mode`), named as `.mode` with no argument
    /// reports them.
    enum Mode: String, Equatable, Sendable, CaseIterable {
        case line, column, list, html, insert, quote, tcl, csv, ascii, markdown, table, box, count, off, json
    }

    /// The current output mode.
    private(set) var mode: Mode = .list
    /// The column separator bytes (`|` initially).
    private(set) var columnSeparator: [UInt8] = [UInt8(ascii: "|")]
    /// The row separator bytes (`\n` initially).
    private(set) var rowSeparator: [UInt8] = [UInt8(ascii: "\n")]

    /// The shell keeps separators in 20-byte buffers: longer ones are cut to 19 bytes.
    static let separatorCapacity = 19

    init() {}

    /// Applies `.mode NAME` as the 3.40 shell does (each mode resets some separators).
    /// The name may be abbreviated as the shell allows (`.mode c` is `column`).
    mutating func setMode(_ name: String) throws {
        try setMode(arguments: [name])
    }

    /// Applies `.mode` with all its arguments (`.mode csv`, `.mode insert TABLE`,
    /// `.mode box --wrap 30`, or no argument at all, which re-applies the current mode and so
    /// resets its separators, exactly as the shell does).
    mutating func setMode(arguments: [String]) throws {
        let name = try Self.modeName(in: arguments) ?? mode.rawValue
        // The shell accepts any prefix of a mode name, trying them in this order.
        guard let choice = Self.modeChoices.first(where: { $0.name.utf8.starts(with: name.utf8) }) else {
            throw DBGenError(
                .dotCommand,
                "mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl"
            )
        }
        mode = choice.mode
        if let column = choice.column { columnSeparator = column }
        if let row = choice.row { rowSeparator = row }
    }

    /// Each name `.mode` takes, in the order the shell tries them, with the separators it sets
    /// (nil: left as they are).
    private static let modeChoices: [(name: String, mode: Mode, column: [UInt8]?, row: [UInt8]?)] = [
        ("lines", .line, nil, [0x0A]), ("columns", .column, nil, [0x0A]), ("list", .list, [0x7C], [0x0A]),
        ("html", .html, nil, nil), ("tcl", .tcl, [0x20], [0x0A]), ("csv", .csv, [0x2C], [0x0D, 0x0A]),
        ("tabs", .list, [0x09], nil), ("insert", .insert, nil, nil), ("quote", .quote, [0x2C], [0x0A]),
        ("ascii", .ascii, [0x1F], [0x1E]), ("markdown", .markdown, nil, nil), ("table", .table, nil, nil),
        ("box", .box, nil, nil), ("count", .count, nil, nil), ("off", .off, nil, nil), ("json", .json, nil, nil),
    ]

    /// The mode named among `.mode`'s arguments (its options and a table name skipped), or
    /// nil for a bare `.mode`.
    private static func modeName(in arguments: [String]) throws -> String? {
        var chosen: String?
        var tableName: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if (optionMatches(argument, "wrap") || optionMatches(argument, "wordwrap")) && index + 1 < arguments.count {
                index += 1
            } else if optionMatches(argument, "ww") || optionMatches(argument, "quote")
                || optionMatches(argument, "noquote")
            {
                // display options: no effect on separators
            } else if chosen == nil {
                chosen = argument == "qbox" ? "box" : argument
            } else if tableName == nil {
                tableName = argument
            } else if argument.hasPrefix("-") {
                throw DBGenError(.dotCommand, "unknown option: \(argument)")
            } else {
                throw DBGenError(.dotCommand, "extra argument: \"\(argument)\"")
            }
            index += 1
        }
        return chosen
    }

    /// Applies `.separator COL [ROW]` (backslash escapes such as `\t`, `\n`, `\037` resolved
    /// as the shell resolves them in unquoted and double-quoted arguments).
    mutating func setSeparator(column: String, row: String?) {
        setSeparator(columnBytes: Self.resolvingBackslashes(column), rowBytes: row.map(Self.resolvingBackslashes))
    }

    /// Applies `.separator` with arguments taken literally (single-quoted in the script, so the
    /// shell resolves no backslash escapes in them).
    mutating func setSeparator(columnBytes: [UInt8], rowBytes: [UInt8]?) {
        columnSeparator = Self.shellStored(columnBytes)
        if let rowBytes { rowSeparator = Self.shellStored(rowBytes) }
    }

    /// The format `.import` uses with no `--csv`/`--ascii`, or an error as the shell gives one
    /// ("multi-character column separators not allowed for import", …).
    func importFormat() throws -> ImportFormat {
        var copy = self
        return try copy.formatForImport(forcing: nil)
    }

    /// The format of one `.import`, with the shell's side effect: in csv mode a `\r\n` row
    /// separator is changed to `\n` for good (a later `.mode tabs` keeps that `\n`).
    /// - Parameter forcing: `.csv` for `.import --csv` (',' and '\n'), `.ascii` for
    ///   `--ascii` (0x1F and 0x1E), nil to take the separators from `.mode`/`.separator`.
    mutating func formatForImport(forcing: ImportFormat.Quoting?) throws -> ImportFormat {
        let asciiMode = mode == .ascii
        switch forcing {
        case .csv?:
            return ImportFormat(
                quoting: .csv, columnSeparator: UInt8(ascii: ","), rowSeparator: UInt8(ascii: "\n"),
                emptyFirstFieldEndsRecord: asciiMode)
        case .ascii?:
            return ImportFormat(
                quoting: .ascii, columnSeparator: 0x1F, rowSeparator: 0x1E,
                emptyFirstFieldEndsRecord: asciiMode)
        case nil:
            break
        }
        if columnSeparator.isEmpty {
            throw DBGenError(.dotCommand, "non-null column separator required for import")
        }
        if columnSeparator.count > 1 {
            throw DBGenError(.dotCommand, "multi-character column separators not allowed for import")
        }
        if rowSeparator.isEmpty {
            throw DBGenError(.dotCommand, "non-null row separator required for import")
        }
        if mode == .csv && rowSeparator == [UInt8(ascii: "\r"), UInt8(ascii: "\n")] {
            rowSeparator = [UInt8(ascii: "\n")]
        }
        if rowSeparator.count > 1 {
            throw DBGenError(.dotCommand, "multi-character row separators not allowed for import")
        }
        return ImportFormat(
            quoting: asciiMode ? .ascii : .csv, columnSeparator: columnSeparator[0],
            rowSeparator: rowSeparator[0], emptyFirstFieldEndsRecord: asciiMode)
    }

    /// `-NAME` or `--NAME`, as the shell's option matching accepts.
    private static func optionMatches(_ argument: String, _ option: String) -> Bool {
        argument == "-" + option || argument == "--" + option
    }

    /// What the shell keeps of a separator: the bytes before any NUL, at most 19 of them.
    private static func shellStored(_ bytes: [UInt8]) -> [UInt8] {
        let untilNul = bytes.prefix { $0 != 0 }
        return Array(untilNul.prefix(separatorCapacity))
    }

    /// The shell's backslash escapes: `\a \b \t \n \v \f \r \" \' \\`, up to three octal
    /// digits (`\037`); any other escaped character stands for itself. A NUL ends the text.
    static func resolvingBackslashes(_ text: String) -> [UInt8] {
        let resolved = DotCommandTokenizer.resolveBackslashes(Array(text.utf8))
        return Array(resolved.prefix { $0 != 0 })
    }
}
