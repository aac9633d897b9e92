#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something the field reader noticed that sqlite3 prints on stderr and carries on after.
enum ImportReaderEvent {
    /// `FILE:LINE: unescaped " character` (a quote inside a quoted field, not doubled).
    case unescapedQuote(line: Int)
    /// `FILE:LINE: unterminated "-quoted field` (end of file inside quotes); LINE is where the
    /// field starts. dbgen stops here.
    case unterminatedQuote(line: Int)
}

/// Reads one field at a time from a file, exactly as the sqlite3 3.40 shell's
/// `csv_read_one_field` / `ascii_read_one_field` do (same quoting rules, same line counting,
/// same quirks), but from a large read buffer instead of `fgetc`.
///
/// Field bytes are appended to a caller's ``ImportByteArena``; the file is read in chunks,
/// so memory stays flat whatever the file size.
struct ImportFieldReader {
    /// What `fgetc` returns at the end of the file.
    static let endOfFile: Int32 = -1
    static let quote = Int32(UInt8(ascii: "\""))
    static let carriageReturn = Int32(UInt8(ascii: "\r"))

    private let fd: Int32
    private let chunk: UnsafeMutablePointer<UInt8>
    private let chunkCapacity: Int
    private var position = 0
    private var end = 0
    private var reachedEnd = false
    private(set) var readError: Int32 = 0

    let columnSeparator: Int32
    let rowSeparator: Int32
    let honoursQuotes: Bool

    /// True once a NUL byte was read: only then must fields be searched for one (the shell
    /// binds C strings, so a NUL ends a value).
    private(set) var sawNulByte = false
    /// Bytes taken from the file so far.
    private(set) var bytesRead: Int64 = 0
    /// The shell's `nLine`: 1 + the row separators read so far (inside quotes too).
    private(set) var line = 1
    /// The shell's `cTerm`: what ended the last field (a separator byte or ``endOfFile``).
    private(set) var terminator: Int32 = 0
    /// False until the first field was read (a UTF-8 BOM is skipped only there).
    private var readFirstField = false
    /// Warnings and errors in the order they happened; the caller drains them.
    var events: [ImportReaderEvent] = []

    init(fileDescriptor: Int32, format: ImportFormat, chunkSize: Int = 1 << 20) {
        fd = fileDescriptor
        chunkCapacity = chunkSize
        chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        columnSeparator = Int32(format.columnSeparator)
        rowSeparator = Int32(format.rowSeparator)
        honoursQuotes = format.quoting == .csv
    }

    func release() {
        chunk.deallocate()
    }

    /// The next byte, or ``endOfFile``.
    @inline(__always)
    private mutating func nextByte() -> Int32 {
        if position < end {
            let byte = chunk[position]
            position += 1
            return Int32(byte)
        }
        return refillAndNextByte()
    }

    private mutating func refill() -> Bool {
        if reachedEnd { return false }
        while true {
            let got = read(fd, chunk, chunkCapacity)
            if got > 0 {
                position = 0
                end = got
                bytesRead += Int64(got)
                if !sawNulByte && memchr(chunk, 0, got) != nil { sawNulByte = true }
                return true
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { readError = errno }
            reachedEnd = true
            return false
        }
    }

    private mutating func refillAndNextByte() -> Int32 {
        guard refill() else { return Self.endOfFile }
        let byte = chunk[position]
        position += 1
        return Int32(byte)
    }

    /// Reads one field, appending its bytes to `arena`.
    /// - Returns: false at the end of the file before the field (the shell's reader returns
    ///   NULL then); the arena then holds no bytes of this field.
    mutating func readField(into arena: inout ImportByteArena) -> Bool {
        if honoursQuotes {
            return readCSVField(into: &arena)
        }
        return readASCIIField(into: &arena)
    }

    private mutating func readASCIIField(into arena: inout ImportByteArena) -> Bool {
        let c = nextByte()
        if c == Self.endOfFile {
            terminator = Self.endOfFile
            return false
        }
        let last = scanUnquoted(first: c, into: &arena)
        if last == rowSeparator { line += 1 }
        terminator = last
        return true
    }

    /// Appends `first` and the bytes after it up to a separator or the end of the file;
    /// returns what ended the field (consumed).
    @inline(__always)
    private mutating func scanUnquoted(first: Int32, into arena: inout ImportByteArena) -> Int32 {
        var c = first
        if c == columnSeparator || c == rowSeparator { return c }
        arena.append(UInt8(truncatingIfNeeded: c))
        let columnByte = UInt8(truncatingIfNeeded: columnSeparator)
        let rowByte = UInt8(truncatingIfNeeded: rowSeparator)
        while true {
            let index = ImportByteSearch.firstIndex(of: columnByte, or: rowByte, in: chunk, from: position, to: end)
            arena.append(chunk + position, count: index - position)
            if index < end {
                c = Int32(chunk[index])
                position = index + 1
                return c
            }
            position = index
            if !refill() { return Self.endOfFile }
        }
    }

    /// Reads a whole record at once when it is plain (csv mode): it ends with a row separator
    /// among the bytes already read, its quoted fields (if any) hold no quote and no row
    /// separator and end with a separator (or CR and the row separator), and it is not the
    /// file's first (which may start with a byte order mark). Appends the bytes of its first
    /// `columnCount` fields to `arena` and their places to `fields` (a CR before the row
    /// separator dropped, as ``readField(into:)`` drops it), and returns how many fields it has.
    /// Returns nil, having consumed nothing, for any other record and for one of fewer than
    /// `columnCount` fields: ``readField(into:)`` then takes it field by field.
    mutating func readPlainRecord(
        columnCount: Int, into arena: inout ImportByteArena, fields: inout ImportFieldList
    ) -> Int? {
        let column = UInt8(truncatingIfNeeded: columnSeparator)
        let row = UInt8(truncatingIfNeeded: rowSeparator)
        let quote = UInt8(ascii: "\"")
        guard honoursQuotes, readFirstField, column != row, column != quote, row != quote else { return nil }
        let base = UnsafeRawPointer(chunk)
        let columnPattern = ImportByteSearch.repeated(column)
        let rowPattern = ImportByteSearch.repeated(row)
        let quotePattern = ImportByteSearch.repeated(quote)
        let recordStart = position
        let arenaStart = arena.count &- recordStart
        let firstField = fields.count
        fields.reserve(columnCount)
        var found = 0
        var fieldStart = recordStart
        var keptEnd = recordStart
        var index = recordStart
        var complete = false
        /// Ends the field of `start..<end`, followed by the byte at `separator`; true at the
        /// end of the record.
        func endField(_ start: Int, _ end: Int, separator: Int) -> Bool {
            if found < columnCount {
                fields.appendReserved(start: arenaStart &+ start, length: end &- start)
                keptEnd = end
            }
            found &+= 1
            fieldStart = separator &+ 1
            return chunk[separator] == row
        }
        scan: while index &+ 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            var matches =
                ImportByteSearch.zeroBytes(word ^ columnPattern) | ImportByteSearch.zeroBytes(word ^ rowPattern)
                | ImportByteSearch.zeroBytes(word ^ quotePattern)
            while matches != 0 {
                let at = index &+ matches.trailingZeroBitCount >> 3
                matches &= matches &- 1
                let byte = chunk[at]
                if byte == column {
                    _ = endField(fieldStart, at, separator: at)
                } else if byte == row {
                    var length = at &- fieldStart
                    if length > 0 && chunk[at &- 1] == UInt8(ascii: "\r") { length &-= 1 }
                    complete = endField(fieldStart, fieldStart &+ length, separator: at)
                    break scan
                } else if at == fieldStart {
                    // A quoted field: its text runs to the next quote, which a separator follows.
                    let close = ImportByteSearch.firstIndex(of: quote, or: row, in: chunk, from: at &+ 1, to: end)
                    guard close &+ 2 < end, chunk[close] == quote else { break scan }
                    var separator = close &+ 1
                    if chunk[separator] == UInt8(ascii: "\r") && chunk[separator &+ 1] == row { separator &+= 1 }
                    guard chunk[separator] == column || chunk[separator] == row else { break scan }
                    complete = endField(at &+ 1, close, separator: separator)
                    if complete { break scan }
                    index = separator &+ 1
                    continue scan
                }
                // A quote inside an unquoted field is one of its bytes.
            }
            index &+= 8
        }
        guard complete, found >= columnCount else {
            fields.truncate(to: firstField)
            return nil
        }
        arena.append(chunk + recordStart, count: keptEnd &- recordStart)
        position = fieldStart
        line &+= 1
        terminator = rowSeparator
        return found
    }

    private mutating func readCSVField(into arena: inout ImportByteArena) -> Bool {
        var c = nextByte()
        if c == Self.endOfFile {
            terminator = Self.endOfFile
            return false
        }
        let start = arena.count
        if c == Self.quote {
            readQuotedRest(start: start, into: &arena)
        } else {
            if c == 0xEF && !readFirstField {
                // A UTF-8 byte order mark before the first field is skipped.
                arena.append(0xEF)
                c = nextByte()
                if c == 0xBB {
                    arena.append(0xBB)
                    c = nextByte()
                    if c == 0xBF {
                        readFirstField = true
                        arena.truncate(to: start)
                        return readCSVField(into: &arena)
                    }
                }
                if c == columnSeparator || c == rowSeparator || c == Self.endOfFile {
                    terminator = c
                } else {
                    terminator = scanUnquoted(first: c, into: &arena)
                }
            } else {
                terminator = scanUnquoted(first: c, into: &arena)
            }
            if terminator == rowSeparator {
                line += 1
                if arena.count > start && arena[arena.count - 1] == UInt8(ascii: "\r") {
                    arena.truncate(to: arena.count - 1)
                }
            }
        }
        readFirstField = true
        return true
    }

    /// The quoted-field state machine of the shell, after the opening quote.
    private mutating func readQuotedRest(start: Int, into arena: inout ImportByteArena) {
        let startLine = line
        let quote = Self.quote
        var previous: Int32 = 0
        var beforePrevious: Int32 = 0
        let quoteByte = UInt8(ascii: "\"")
        let rowByte = UInt8(truncatingIfNeeded: rowSeparator)
        while true {
            // Bytes other than a quote or a row separator, after anything but a quote, are
            // simply stored: take them in one run.
            if previous != quote && position < end {
                let stop = ImportByteSearch.firstIndex(of: quoteByte, or: rowByte, in: chunk, from: position, to: end)
                let run = stop - position
                if run > 0 {
                    arena.append(chunk + position, count: run)
                    beforePrevious = run >= 2 ? Int32(chunk[stop - 2]) : previous
                    previous = Int32(chunk[stop - 1])
                    position = stop
                }
            }
            let c = nextByte()
            if c == rowSeparator { line += 1 }
            if c == quote && previous == quote {
                previous = 0
                continue
            }
            if (c == columnSeparator && previous == quote)
                || (c == rowSeparator && previous == quote)
                || (c == rowSeparator && previous == Self.carriageReturn && beforePrevious == quote)
                || (c == Self.endOfFile && previous == quote)
            {
                // Drop the closing quote (and a CR after it).
                var n = arena.count
                repeat { n -= 1 } while arena[n] != UInt8(ascii: "\"")
                arena.truncate(to: n)
                terminator = c
                return
            }
            if previous == quote && c != Self.carriageReturn {
                events.append(.unescapedQuote(line: line))
            }
            if c == Self.endOfFile {
                events.append(.unterminatedQuote(line: startLine))
                terminator = c
                return
            }
            arena.append(UInt8(truncatingIfNeeded: c))
            beforePrevious = previous
            previous = c
        }
    }
}

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
        self.init(
            quoting: quoting, columnSeparator: columnSeparator, rowSeparator: rowSeparator,
            emptyFirstFieldEndsRecord: quoting == .ascii)
    }

    init(quoting: Quoting, columnSeparator: UInt8, rowSeparator: UInt8, emptyFirstFieldEndsRecord: Bool) {
        self.quoting = quoting
        self.columnSeparator = columnSeparator
        self.rowSeparator = rowSeparator
        self.emptyFirstFieldEndsRecord = emptyFirstFieldEndsRecord
    }

    /// `.import --csv`: ',' and '\n', quotes honoured.
    static let csv = ImportFormat(
        quoting: .csv, columnSeparator: UInt8(ascii: ","), rowSeparator: UInt8(ascii: "\n"),
        emptyFirstFieldEndsRecord: false)
    /// `.import --ascii` (or `.mode ascii`): 0x1F and 0x1E, no quoting.
    static let ascii = ImportFormat(
        quoting: .ascii, columnSeparator: 0x1F, rowSeparator: 0x1E,
        emptyFirstFieldEndsRecord: true)
}
