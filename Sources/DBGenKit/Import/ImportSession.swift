#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EssentialsSupport

/// One run of `.import`: the file, the reader, the statements and the transaction. It follows
/// the `.import` branch of the 3.40 shell's `do_meta_command` step by step.
struct ImportSession {
    private let request: ImportRequest
    private let connection: Connection
    private let diagnostics: DiagnosticHandler
    private let progress: ((ImportProgress) -> Void)?
    private let fd: Int32
    private let totalBytes: Int64
    private var reader: ImportFieldReader
    private var insert: Statement?
    private var groupedInsert: ImportGroupedInsert?
    private var importTable: ImportTable?
    private var qualifiedTable = ""
    private var transaction: Transaction = .none
    /// Rows the page writer laid out (``ImportPageImport``).
    private var rowsWrittenAsPages = 0
    /// Warnings other than the ones counted by kind (renamed columns).
    private var otherWarnings = 0
    /// The import's warnings by kind: the first few are reported, the rest summed up at the end.
    private var tally = ImportWarningTally()

    private enum Transaction { case none, begun, savepoint }

    init(
        request: ImportRequest, connection: Connection, diagnostics: @escaping DiagnosticHandler,
        progress: ((ImportProgress) -> Void)?
    ) throws {
        self.request = request
        self.connection = connection
        self.diagnostics = diagnostics
        self.progress = progress
        if request.displayPath.hasPrefix("|") || request.file.lastPathComponent.hasPrefix("|") {
            throw DBGenError(
                .refused,
                "running a program is not allowed: .import \"\(request.displayPath)\" would run a command")
        }
        let descriptor = open(request.file.path, O_RDONLY)
        if descriptor < 0 {
            throw DBGenError(.input, "cannot open \"\(request.displayPath)\": \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(descriptor, &info) != 0 || (info.st_mode & S_IFMT) == S_IFDIR {
            let reason = (info.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : String(cString: strerror(errno))
            _ = closeFile(descriptor)
            throw DBGenError(.input, "cannot open \"\(request.displayPath)\": \(reason)")
        }
        fd = descriptor
        totalBytes = Int64(info.st_size)
        reader = ImportFieldReader(fileDescriptor: descriptor, format: request.format)
    }

    /// Releases the statements, the reader's buffer and the file.
    mutating func finish() {
        insert = nil
        groupedInsert = nil
        reader.release()
        _ = closeFile(fd)
    }

    private func location(_ line: Int) -> SourceLocation {
        SourceLocation(path: request.displayPath, line: line)
    }

    private mutating func warn(_ message: String, line: Int) throws {
        otherWarnings += 1
        try diagnostics(Diagnostic.warning(message, at: location(line)))
    }

    /// What the import did, and the warnings that sum up the kinds reported only in part.
    private mutating func finish(rows: Int, createdTable: Bool) throws -> ImportResult {
        for summary in tally.summaries(file: request.displayPath) {
            try diagnostics(summary)
        }
        return ImportResult(
            rowsInserted: rows, createdTable: createdTable, warnings: otherWarnings + tally.total,
            rowsWrittenAsPages: rowsWrittenAsPages)
    }

    /// Reports what the reader noticed, in order; an unterminated quote ends the import.
    private mutating func drainReaderEvents() throws {
        if reader.events.isEmpty { return }
        let events = reader.events
        reader.events.removeAll(keepingCapacity: true)
        for event in events {
            switch event {
            case .unescapedQuote(let line):
                if tally.count(.unescapedQuote, line: line) {
                    try diagnostics(
                        Diagnostic.importWarning(.unescapedQuote, "unescaped \" character", at: location(line)))
                }
            case .unterminatedQuote(let line):
                throw DBGenError(.importData, "unterminated \"-quoted field", at: location(line))
            }
        }
    }

    private func checkReadError() throws {
        if reader.readError != 0 {
            throw DBGenError(
                .input, "cannot read \"\(request.displayPath)\": \(String(cString: strerror(reader.readError)))")
        }
    }

    mutating func run() throws -> ImportResult {
        var scratch = ImportByteArena(capacity: 4096)
        defer { scratch.release() }
        try skipRecords(using: &scratch)
        let qualifiedTable =
            (request.schema.map { SQLIdentifier.quote($0) + "." } ?? "") + SQLIdentifier.quote(request.table)
        var createdTable = false
        var columnCount = try tableColumnCount(qualifiedTable)
        if columnCount == nil {
            try createTableFromHeader(qualifiedTable, using: &scratch)
            createdTable = true
            columnCount = try tableColumnCount(qualifiedTable)
            guard columnCount != nil else { throw DBGenError(.importData, connection.errorMessage) }
        }
        guard let nCol = columnCount else { throw DBGenError(.importData, connection.errorMessage) }
        tally.expectedFields = nCol
        if nCol == 0 {
            return try finish(rows: 0, createdTable: createdTable)
        }
        try prepareInserts(qualifiedTable, columnCount: nCol)
        // dbgen lays out the table's pages itself where it can (ImportPageImport); SQLite's
        // insert path, in a transaction, takes the rest.
        let pages =
            (try? ImportPageImport.start(
                connection: connection, table: importTable, columnCount: nCol, location: location)) ?? nil
        do {
            if pages == nil { try beginTransaction() }
            let rows = try insertRows(columnCount: nCol, pages: pages)
            try endTransaction()
            return try finish(rows: rows, createdTable: createdTable)
        } catch {
            rollBack()
            pages?.writer.restore()
            throw error
        }
    }

    /// `--skip N`: whole records, as the shell reads them.
    private mutating func skipRecords(using scratch: inout ImportByteArena) throws {
        let columnSeparator = reader.columnSeparator
        var skip = request.skip
        while skip > 0 {
            skip -= 1
            while reader.readField(into: &scratch) && reader.terminator == columnSeparator {
                scratch.reset()
            }
            scratch.reset()
            try drainReaderEvents()
        }
    }

    /// The shell's way with a missing table: its columns are the first record's fields, all TEXT.
    private mutating func createTableFromHeader(_ qualifiedTable: String, using scratch: inout ImportByteArena) throws {
        let headerLine = reader.line
        var namer = ImportColumnNamer()
        while reader.readField(into: &scratch) {
            namer.add(Array(UnsafeBufferPointer(start: scratch.base, count: scratch.count)))
            scratch.reset()
            if reader.terminator != reader.columnSeparator { break }
        }
        scratch.reset()
        try drainReaderEvents()
        try checkReadError()
        guard let (sql, renames) = namer.createStatement(qualifiedTable: qualifiedTable) else {
            throw DBGenError(
                .importData, "empty file: no header row to create table \(qualifiedTable) from",
                at: location(headerLine))
        }
        if !renames.isEmpty {
            try warn(
                "columns renamed during .import due to duplicates: "
                    + ImportColumnNamer.renameReport(renames).replacingEvery(",\n", with: ", "),
                line: headerLine)
        }
        do {
            // The column names are the file's bytes, which need not be UTF-8: run them as they are.
            try sql.withUnsafeBufferPointer { buffer in
                // Sql holds at least its terminating NUL, so it has a base address.
                // swift-format-ignore: NeverForceUnwrap
                let text = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                let prepared = try connection.prepareFirst(of: text, byteCount: buffer.count)
                if let statement = prepared.statement { while try statement.step() {} }
            }
        } catch let error as SQLiteError {
            throw DBGenError(
                .importData, "cannot create table \(qualifiedTable) from the header row: \(error.message)",
                at: location(headerLine))
        }
    }

    /// The one-row INSERT (and, when it cannot change the outcome, the multi-row one).
    private mutating func prepareInserts(_ qualifiedTable: String, columnCount: Int) throws {
        let insertSQL =
            "INSERT INTO \(qualifiedTable) VALUES("
            + Array(repeating: "?", count: columnCount).joined(separator: ",") + ")"
        do {
            insert = try connection.prepare(insertSQL)
        } catch let error as SQLiteError {
            throw DBGenError(.importData, error.message)
        }
        // The table's metadata, read once for everything the import decides about it.
        importTable = ImportTable.read(connection: connection, name: request.table, schema: request.schema)
        groupedInsert = ImportGroupedInsert.prepare(
            connection: connection, table: importTable, qualifiedTable: qualifiedTable,
            columnCount: columnCount)
        self.qualifiedTable = qualifiedTable
    }

    /// The number of columns `SELECT * FROM table` has, or nil when the table does not exist
    /// (the shell then creates it): when that SELECT does not compile, the schema says whether
    /// there is such a table or view.
    private func tableColumnCount(_ qualifiedTable: String) throws -> Int? {
        do {
            return Int(try connection.prepare("SELECT * FROM \(qualifiedTable)").columnCount)
        } catch let error as SQLiteError {
            if try !connection.tableExists(request.table, schema: request.schema) { return nil }
            throw DBGenError(.importData, error.message)
        }
    }

    private mutating func beginTransaction() throws {
        // Not the shell's doing when a transaction is open, but lets a failed import undo its own rows only.
        let savepoint = connection.isInTransaction
        do {
            try connection.execute(savepoint ? "SAVEPOINT dbgen_import" : "BEGIN")
        } catch let error as SQLiteError {
            throw DBGenError(.importData, error.message)
        }
        transaction = savepoint ? .savepoint : .begun
    }

    private mutating func endTransaction() throws {
        let sql: String
        switch transaction {
        case .none: return
        case .begun: sql = "COMMIT"
        case .savepoint: sql = "RELEASE dbgen_import"
        }
        transaction = .none
        do {
            try connection.execute(sql)
        } catch let error as SQLiteError {
            throw DBGenError(.importData, "\(sql) failed: \(error.message)", at: location(reader.line))
        }
    }

    /// Undoes this import's rows after an error, which is what gets reported: a failure to roll
    /// back (the transaction is already gone after an I/O error) adds nothing to it.
    private mutating func rollBack() {
        let statements: [String]
        switch transaction {
        case .none: statements = []
        case .begun: statements = connection.isInTransaction ? ["ROLLBACK"] : []
        case .savepoint: statements = ["ROLLBACK TO dbgen_import", "RELEASE dbgen_import"]
        }
        transaction = .none
        for sql in statements {
            do { try connection.execute(sql) } catch { break }
        }
    }

    /// Files at least this big are parsed on a second thread while rows are inserted.
    static let parallelThreshold: Int64 = 1 << 20
    static let batchRecords = 2048
    static let batchBytes = 256 * 1024

    /// Parses the records (on a second thread for big files) and inserts them in order: into
    /// `pages` until SQLite's insert path takes over (``ImportPageImport``), or all through it.
    private mutating func insertRows(columnCount nCol: Int, pages: ImportPageImport?) throws -> Int {
        var parser = ImportRecordParser(
            reader: reader, columnCount: nCol, displayPath: request.displayPath,
            emptyFirstFieldEnds: request.format.emptyFirstFieldEndsRecord, tally: tally)
        var pageImport = pages
        // Insert is prepared: importing runs prepareInserts before insertRows.
        // swift-format-ignore: NeverForceUnwrap
        var inserter = ImportRowInserter(
            statement: insert!, group: groupedInsert, columnCount: nCol,
            connection: connection)
        progress?(ImportProgress(file: request.displayPath, bytesRead: 0, totalBytes: totalBytes))
        var nextProgress: Int64 = 4 << 20
        func consume(_ batch: ImportBatch) throws {
            if let active = pageImport {
                if let handover = try active.consume(batch, report: { try self.report($0) }) {
                    pageImport = nil
                    inserter = try handOver(active, handover, columnCount: nCol)
                }
            } else {
                try inserter.insert(batch, location: location, warn: { try self.report($0) })
            }
            if let finalTally = batch.finalTally { tally = finalTally }
            if let progress, batch.bytesRead >= nextProgress || batch.isLast {
                progress(ImportProgress(file: request.displayPath, bytesRead: batch.bytesRead, totalBytes: totalBytes))
                nextProgress = batch.bytesRead + (4 << 20)
            }
        }
        if totalBytes < Self.parallelThreshold {
            defer { parser.release() }
            while true {
                let batch = parser.nextBatch(maxRecords: Self.batchRecords, maxBytes: Self.batchBytes)
                try consume(batch)
                if batch.isLast { break }
            }
        } else {
            let channel = ImportBatchChannel(capacity: 4)
            let producer = ImportBatchProducer(parser: parser, channel: channel)
            DetachedThread.start(stackSize: 1 << 20) { producer.run() }
            defer {
                channel.cancel()
                channel.waitForProducer()
            }
            while let batch = channel.take() {
                try consume(batch)
                if batch.isLast { break }
            }
        }
        if let active = pageImport {
            inserter = try handOver(active, active.finalHandover, columnCount: nCol)
        }
        rowsWrittenAsPages = pages?.rows ?? 0
        return rowsWrittenAsPages + inserter.rows
    }

    /// Ends the page path: the table goes to SQLite as laid out, then SQLite's insert path
    /// inserts the records of `handover` in a transaction, which the rest of the file joins.
    private mutating func handOver(
        _ pages: ImportPageImport, _ handover: ImportPageImport.Handover, columnCount: Int
    ) throws -> ImportRowInserter {
        try pages.finish()
        try beginTransaction()
        // The rowid SQLite gives next is now past the rows laid out.
        groupedInsert = ImportGroupedInsert.prepare(
            connection: connection, table: importTable, qualifiedTable: qualifiedTable, columnCount: columnCount)
        // Insert is prepared: importing runs prepareInserts before the rows.
        // swift-format-ignore: NeverForceUnwrap
        var inserter = ImportRowInserter(
            statement: insert!, group: groupedInsert, columnCount: columnCount, connection: connection)
        if let record = handover.pending {
            try inserter.insert(
                record.batch, entries: record.entry..<(record.entry + 1), firstField: record.field,
                location: location, warn: { try self.report($0) })
        }
        if let batch = handover.batch {
            try inserter.insert(
                batch, entries: handover.entry..<batch.entries.count, firstField: handover.field,
                location: location, warn: { try self.report($0) })
        }
        return inserter
    }

    private func report(_ diagnostic: Diagnostic) throws {
        try diagnostics(diagnostic)
    }
}

/// `close(2)`, out of reach of the session's own names.
private func closeFile(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
