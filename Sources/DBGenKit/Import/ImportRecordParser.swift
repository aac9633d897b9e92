#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shell's record loop without the database: reads fields as the `.import` loop of the
/// 3.40 shell does (NULL-filling short records, reading and ignoring extras, its ascii-mode
/// stop on an empty first field) and writes what to insert and what to report into batches.
struct ImportRecordParser {
    private var reader: ImportFieldReader
    private let columnCount: Int
    private let displayPath: String
    private let emptyFirstFieldEnds: Bool

    private var bytes = ImportByteArena()
    private var entries: [ImportBatch.Entry] = []
    private var fields = ImportFieldList(capacity: 16)
    private var diagnostics: [Diagnostic] = []
    /// The import's warnings counted so far: only the first few of a kind become diagnostics.
    private var tally: ImportWarningTally
    /// The end of the file was reached, or an error ended the import.
    private(set) var finished = false

    /// A parser going on with `reader`, whose warnings so far (`--skip`) `tally` counted.
    init(
        reader: ImportFieldReader, columnCount: Int, displayPath: String, emptyFirstFieldEnds: Bool,
        tally: ImportWarningTally
    ) {
        self.reader = reader
        self.columnCount = columnCount
        self.displayPath = displayPath
        self.emptyFirstFieldEnds = emptyFirstFieldEnds
        self.tally = tally
    }

    /// Parses records until the batch holds about `maxRecords` records or `maxBytes` bytes.
    mutating func nextBatch(maxRecords: Int, maxBytes: Int) -> ImportBatch {
        while !finished && entries.count < maxRecords && bytes.count < maxBytes {
            parseRecord()
        }
        let batch = ImportBatch(
            bytes: bytes, entries: entries, fields: fields,
            diagnostics: diagnostics, bytesRead: reader.bytesRead, isLast: finished,
            mayContainNul: reader.sawNulByte, finalTally: finished ? tally : nil)
        bytes = ImportByteArena(capacity: max(64 * 1024, min(bytes.capacity, maxBytes * 2)))
        entries = []
        entries.reserveCapacity(maxRecords + 8)
        fields = ImportFieldList(capacity: (maxRecords + 8) * columnCount)
        diagnostics = []
        return batch
    }

    /// Releases the unsent buffers (the batches own theirs).
    func release() {
        bytes.release()
        fields.release()
    }

    private mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
        entries.append(.diagnostic)
        if diagnostic.severity == .error { finished = true }
    }

    /// Counts a warning of `kind`; reports it (`message` is made only then) while it is among
    /// the first of its kind.
    @inline(__always)
    private mutating func warn(_ kind: ImportWarningKind, line: Int, fields: Int = 0, _ message: () -> String) {
        if tally.count(kind, line: line, fields: fields) {
            report(Diagnostic.importWarning(kind, message(), at: SourceLocation(path: displayPath, line: line)))
        }
    }

    /// Moves the reader's warnings into the batch; false after an unterminated quote.
    private mutating func takeReaderEvents() -> Bool {
        if reader.events.isEmpty { return true }
        for event in reader.events {
            switch event {
            case .unescapedQuote(let line):
                warn(.unescapedQuote, line: line) { "unescaped \" character" }
            case .unterminatedQuote(let line):
                report(
                    Diagnostic(
                        .error, "unterminated \"-quoted field", at: SourceLocation(path: displayPath, line: line)))
                reader.events.removeAll()
                return false
            }
        }
        reader.events.removeAll(keepingCapacity: true)
        return true
    }

    /// One pass of the shell's `do { … } while( sCtx.cTerm!=EOF )` loop.
    private mutating func parseRecord() {
        let nCol = columnCount
        let columnSeparator = reader.columnSeparator
        let startLine = reader.line
        // Most records are plain: read whole, with the warning the loop below gives extras.
        if !emptyFirstFieldEnds, let found = reader.readPlainRecord(columnCount: nCol, into: &bytes, fields: &fields) {
            if found > nCol {
                warn(.extraFields, line: startLine, fields: found) {
                    "expected \(nCol) columns but found \(found) - extras ignored"
                }
            }
            entries.append(.insert(line: startLine))
            return
        }
        let firstField = fields.count
        var i = 0
        var bound = false
        while i < nCol {
            let start = bytes.count
            let notNull = reader.readField(into: &bytes)
            if !notNull && i == 0 { break }
            let length = bytes.count - start
            if emptyFirstFieldEnds && i == 0 && (!notNull || length == 0 || bytes[start] == 0) {
                bytes.truncate(to: start)
                break
            }
            fields.append(start: start, length: notNull ? length : -1)
            bound = true
            if i < nCol - 1 && reader.terminator != columnSeparator {
                guard takeReaderEvents() else { return dropFields(from: firstField) }
                warn(.missingFields, line: startLine, fields: i + 1) {
                    "expected \(nCol) columns but found \(i + 1) - filling the rest with NULL"
                }
                for _ in (i + 1)..<nCol {
                    fields.append(start: 0, length: -1)
                }
                i = nCol + 1
            }
            i += 1
        }
        if reader.terminator == columnSeparator {
            let keep = bytes.count
            repeat {
                _ = reader.readField(into: &bytes)
                bytes.truncate(to: keep)
                i += 1
            } while reader.terminator == columnSeparator
            guard takeReaderEvents() else { return dropFields(from: firstField) }
            warn(.extraFields, line: startLine, fields: i) {
                "expected \(nCol) columns but found \(i) - extras ignored"
            }
        }
        guard takeReaderEvents() else { return dropFields(from: firstField) }
        if i >= nCol {
            entries.append(bound ? .insert(line: startLine) : .reinsert(line: startLine))
        } else if bound {
            dropFields(from: firstField)
        }
        if reader.terminator == ImportFieldReader.endOfFile {
            finished = true
            if reader.readError != 0 {
                report(
                    Diagnostic(.error, "cannot read \"\(displayPath)\": \(String(cString: strerror(reader.readError)))")
                )
            }
        }
    }

    /// Forgets the fields of a record that is not inserted.
    private mutating func dropFields(from index: Int) {
        fields.truncate(to: index)
    }
}
