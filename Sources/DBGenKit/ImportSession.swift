import CSQLite
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `SQLITE_STATIC`: SQLite uses the bound bytes in place; they stay valid until the next bind.
private let sqliteStatic = unsafeBitCast(0, to: sqlite3_destructor_type.self)

/// One run of `.import`: the file, the reader, the statements and the transaction. It follows
/// the `.import` branch of the 3.40 shell's `do_meta_command` step by step.
struct ImportSession {
    private let request: ImportRequest
    private let db: OpaquePointer
    private let diagnostics: DiagnosticHandler
    private let progress: ((Int64, Int64) -> Void)?
    private let fd: Int32
    private let totalBytes: Int64
    private var reader: ImportFieldReader
    private var insert: OpaquePointer?
    private var groupedInsert: ImportGroupedInsert?
    private var transaction: Transaction = .none
    private var warnings = 0

    private enum Transaction { case none, begun, savepoint }

    init(request: ImportRequest, db: OpaquePointer, diagnostics: @escaping DiagnosticHandler,
         progress: ((Int64, Int64) -> Void)?) throws {
        self.request = request
        self.db = db
        self.diagnostics = diagnostics
        self.progress = progress
        if request.displayPath.hasPrefix("|") || request.file.lastPathComponent.hasPrefix("|") {
            throw Diagnostic.error(
                "running a program is not allowed: .import \"\(request.displayPath)\" would run a command")
        }
        let descriptor = open(request.file.path, O_RDONLY)
        if descriptor < 0 {
            throw Diagnostic.error("cannot open \"\(request.displayPath)\": \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(descriptor, &info) != 0 || (info.st_mode & S_IFMT) == S_IFDIR {
            let reason = (info.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : String(cString: strerror(errno))
            _ = closeFile(descriptor)
            throw Diagnostic.error("cannot open \"\(request.displayPath)\": \(reason)")
        }
        fd = descriptor
        totalBytes = Int64(info.st_size)
        reader = ImportFieldReader(fileDescriptor: descriptor, format: request.format)
    }

    func finish() {
        if let insert { sqlite3_finalize(insert) }
        groupedInsert?.finalize()
        reader.release()
        _ = closeFile(fd)
    }

    private func location(_ line: Int) -> SourceLocation {
        SourceLocation(path: request.displayPath, line: line)
    }

    private func errorMessage() -> String {
        String(cString: sqlite3_errmsg(db))
    }

    private mutating func warn(_ message: String, line: Int) throws {
        warnings += 1
        try diagnostics(Diagnostic.warning(message, at: location(line)))
    }

    /// Reports what the reader noticed, in order; an unterminated quote ends the import.
    private mutating func drainReaderEvents() throws {
        if reader.events.isEmpty { return }
        let events = reader.events
        reader.events.removeAll(keepingCapacity: true)
        for event in events {
            switch event {
            case .unescapedQuote(let line):
                try warn("unescaped \" character", line: line)
            case .unterminatedQuote(let line):
                throw Diagnostic.error("unterminated \"-quoted field", at: location(line))
            }
        }
    }

    private func checkReadError() throws {
        if reader.readError != 0 {
            throw Diagnostic.error("cannot read \"\(request.displayPath)\": \(String(cString: strerror(reader.readError)))")
        }
    }

    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    mutating func run() throws -> ImportResult {
        var scratch = ImportByteArena(capacity: 4096)
        defer { scratch.release() }
        let columnSeparator = reader.columnSeparator

        // --skip N: whole records, as the shell reads them.
        var skip = request.skip
        while skip > 0 {
            skip -= 1
            while reader.readField(into: &scratch) && reader.terminator == columnSeparator {
                scratch.reset()
            }
            scratch.reset()
            try drainReaderEvents()
        }

        let qualifiedTable = (request.schema.map { Self.quoted($0) + "." } ?? "") + Self.quoted(request.table)
        var createdTable = false
        var columnCount = try tableColumnCount(qualifiedTable)
        if columnCount == nil {
            let headerLine = reader.line
            var namer = ImportColumnNamer()
            while reader.readField(into: &scratch) {
                namer.add(Array(UnsafeBufferPointer(start: scratch.base, count: scratch.count)))
                scratch.reset()
                if reader.terminator != columnSeparator { break }
            }
            scratch.reset()
            try drainReaderEvents()
            try checkReadError()
            guard let (sql, renames) = namer.createStatement(qualifiedTable: qualifiedTable) else {
                throw Diagnostic.error("empty file: no header row to create table \(qualifiedTable) from",
                                       at: location(headerLine))
            }
            if !renames.isEmpty {
                try warn("columns renamed during .import due to duplicates: "
                         + ImportColumnNamer.renameReport(renames).replacingOccurrences(of: ",\n", with: ", "),
                         line: headerLine)
            }
            let statementText = sql + [0]
            let rc = statementText.withUnsafeBufferPointer {
                sqlite3_exec(db, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil, nil, nil)
            }
            if rc != SQLITE_OK {
                throw Diagnostic.error("cannot create table \(qualifiedTable) from the header row: \(errorMessage())",
                                       at: location(headerLine))
            }
            createdTable = true
            columnCount = try tableColumnCount(qualifiedTable)
            guard columnCount != nil else {
                throw Diagnostic.error(errorMessage())
            }
        }
        let nCol = columnCount!
        if nCol == 0 {
            return ImportResult(rowsInserted: 0, createdTable: createdTable, warnings: warnings)
        }

        let insertSQL = "INSERT INTO \(qualifiedTable) VALUES(" + Array(repeating: "?", count: nCol).joined(separator: ",") + ")"
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(db, insertSQL, -1, &statement, nil) != SQLITE_OK {
            let message = errorMessage()
            sqlite3_finalize(statement)
            throw Diagnostic.error(message)
        }
        insert = statement
        groupedInsert = ImportGroupedInsert.prepare(db: db, table: request.table, schema: request.schema,
                                                    qualifiedTable: qualifiedTable, columnCount: nCol)

        // Hold the connection's mutex for the whole import: each bind/step/reset then takes
        // it recursively, which costs far less than a fresh lock (NULL without a mutex: no-op).
        let connectionMutex = sqlite3_db_mutex(db)
        sqlite3_mutex_enter(connectionMutex)
        defer { sqlite3_mutex_leave(connectionMutex) }
        try beginTransaction()
        do {
            let rows = try insertRows(columnCount: nCol)
            try endTransaction()
            return ImportResult(rowsInserted: rows, createdTable: createdTable, warnings: warnings)
        } catch {
            rollBack()
            throw error
        }
    }

    /// The number of columns `SELECT * FROM table` has, or nil when the table does not exist.
    private func tableColumnCount(_ qualifiedTable: String) throws -> Int? {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, "SELECT * FROM \(qualifiedTable)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        if rc != SQLITE_OK {
            let message = errorMessage()
            if message.hasPrefix("no such table: ") { return nil }
            throw Diagnostic.error(message)
        }
        return Int(sqlite3_column_count(statement))
    }

    private mutating func beginTransaction() throws {
        if sqlite3_get_autocommit(db) != 0 {
            guard sqlite3_exec(db, "BEGIN", nil, nil, nil) == SQLITE_OK else { throw Diagnostic.error(errorMessage()) }
            transaction = .begun
        } else {
            // Not the shell's doing, but lets a failed import undo its own rows only.
            guard sqlite3_exec(db, "SAVEPOINT dbgen_import", nil, nil, nil) == SQLITE_OK else {
                throw Diagnostic.error(errorMessage())
            }
            transaction = .savepoint
        }
    }

    private mutating func endTransaction() throws {
        let sql: String
        switch transaction {
        case .none: return
        case .begun: sql = "COMMIT"
        case .savepoint: sql = "RELEASE dbgen_import"
        }
        transaction = .none
        if sqlite3_exec(db, sql, nil, nil, nil) != SQLITE_OK {
            throw Diagnostic.error("\(sql) failed: \(errorMessage())", at: location(reader.line))
        }
    }

    private mutating func rollBack() {
        switch transaction {
        case .none: break
        case .begun:
            if sqlite3_get_autocommit(db) == 0 { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
        case .savepoint:
            sqlite3_exec(db, "ROLLBACK TO dbgen_import", nil, nil, nil)
            sqlite3_exec(db, "RELEASE dbgen_import", nil, nil, nil)
        }
        transaction = .none
    }

    /// Files at least this big are parsed on a second thread while rows are inserted.
    static let parallelThreshold: Int64 = 1 << 20
    static let batchRecords = 2048
    static let batchBytes = 256 * 1024

    /// Parses the records (on a second thread for big files) and inserts them in order.
    private mutating func insertRows(columnCount nCol: Int) throws -> Int {
        var parser = ImportRecordParser(reader: reader, columnCount: nCol, displayPath: request.displayPath,
                                        emptyFirstFieldEnds: request.format.emptyFirstFieldEndsRecord)
        var inserter = RowInserter(statement: insert!, group: groupedInsert, columnCount: nCol, db: db)
        progress?(0, totalBytes)
        var nextProgress: Int64 = 4 << 20
        func consume(_ batch: ImportBatch) throws {
            try inserter.insert(batch, location: location, warn: { try self.report($0) })
            if let progress, batch.bytesRead >= nextProgress || batch.isLast {
                progress(batch.bytesRead, totalBytes)
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
            let thread = Thread { producer.run() }
            thread.stackSize = 1 << 20
            thread.start()
            defer {
                channel.cancel()
                channel.waitForProducer()
            }
            while let batch = channel.take() {
                try consume(batch)
                if batch.isLast { break }
            }
        }
        warnings += inserter.warnings
        return inserter.rows
    }

    private func report(_ diagnostic: Diagnostic) throws {
        try diagnostics(diagnostic)
    }
}

/// Runs a parser on its own thread, handing batches over until the end or a cancel.
private final class ImportBatchProducer: @unchecked Sendable {
    private var parser: ImportRecordParser
    private let channel: ImportBatchChannel

    init(parser: ImportRecordParser, channel: ImportBatchChannel) {
        self.parser = parser
        self.channel = channel
    }

    func run() {
        defer {
            parser.release()
            channel.markProducerFinished()
        }
        while true {
            let batch = parser.nextBatch(maxRecords: ImportSession.batchRecords, maxBytes: ImportSession.batchBytes)
            if !channel.put(batch) || batch.isLast { return }
        }
    }
}

/// Replays batches against the prepared INSERT: binds fields in place (`SQLITE_STATIC`) and
/// keeps the batch holding the current bindings alive until the next bind.
///
/// With a multi-row statement (``ImportGroupedInsert``), runs of consecutive records go
/// `rows` at a time through it, which saves SQLite's per-statement work (reset, cursor open,
/// a root-to-leaf seek per row). Each run ends with at least one record through the
/// single-row statement, so that statement always holds the last record's bindings (for
/// `.reinsert`) and `changes()` after the import is 1, as in the shell. A failed group is undone
/// by SQLite (statement rollback) and its records are replayed one by one, so the error names
/// the record, and its message, exactly as the single-row insert reports it.
private struct RowInserter {
    let statement: OpaquePointer
    let group: ImportGroupedInsert?
    let columnCount: Int
    let db: OpaquePointer
    private(set) var rows = 0
    private(set) var warnings = 0
    /// The batch whose bytes the single-row statement's parameters point into.
    private var boundBatch: ImportBatch?
    /// Records of the current batch waiting for a group: (line, index of the first field).
    private var pending: [(line: Int, field: Int)] = []

    init(statement: OpaquePointer, group: ImportGroupedInsert?, columnCount: Int, db: OpaquePointer) {
        self.statement = statement
        self.group = group
        self.columnCount = columnCount
        self.db = db
        if let group { pending.reserveCapacity(ImportSession.batchRecords + group.rows) }
    }

    mutating func insert(_ batch: ImportBatch, location: (Int) -> SourceLocation,
                         warn: (Diagnostic) throws -> Void) throws {
        try batch.fieldStarts.withUnsafeBufferPointer { starts in
            try batch.fieldLengths.withUnsafeBufferPointer { lengths in
                let fields = BatchFields(base: batch.bytes.base, starts: starts, lengths: lengths,
                                         checkNul: batch.mayContainNul)
                defer { pending.removeAll(keepingCapacity: true) }
                try insert(batch, fields: fields, location: location, warn: warn)
            }
        }
    }

    /// Where the fields of a batch are.
    private struct BatchFields {
        let base: UnsafeMutablePointer<UInt8>
        let starts: UnsafeBufferPointer<Int>
        let lengths: UnsafeBufferPointer<Int>
        let checkNul: Bool
    }

    private mutating func insert(_ batch: ImportBatch, fields: BatchFields,
                                 location: (Int) -> SourceLocation, warn: (Diagnostic) throws -> Void) throws {
        var field = 0
        var diagnostic = 0
        let nCol = columnCount
        for entry in batch.entries {
            switch entry {
            case .diagnostic:
                try flush(batch, fields: fields, location: location)
                let next = batch.diagnostics[diagnostic]
                diagnostic += 1
                if next.severity == .error { throw next }
                warnings += 1
                try warn(next)
            case .insert(let line):
                if group != nil {
                    pending.append((line, field))
                } else {
                    try insertSingle(batch, fields: fields, field: field, line: line, location: location)
                }
                field += nCol
            case .reinsert(let line):
                try flush(batch, fields: fields, location: location)
                try step(statement, line: line, location: location)
            }
        }
        try flush(batch, fields: fields, location: location)
    }

    /// Inserts the pending records: whole groups, then the rest (at least one) one by one.
    private mutating func flush(_ batch: ImportBatch, fields: BatchFields, location: (Int) -> SourceLocation) throws {
        let count = pending.count
        if count == 0 { return }
        var next = 0
        if let group {
            let size = group.rows
            let nCol = columnCount
            for _ in 0..<((count - 1) / size) {
                for row in 0..<size {
                    bind(group.statement, parameterOffset: Int32(row * nCol), fields: fields,
                         field: pending[next + row].field)
                }
                sqlite3_step(group.statement)
                if sqlite3_reset(group.statement) == SQLITE_OK {
                    rows += size
                } else {
                    let message = String(cString: sqlite3_errmsg(db))
                    if sqlite3_get_autocommit(db) != 0 {
                        // The whole transaction is gone (not a constraint: I/O, full disk):
                        // nothing to replay against.
                        throw Diagnostic.error("INSERT failed: \(message)", at: location(pending[next].line))
                    }
                    // SQLite undid the group's rows: insert them singly to find the failing one.
                    for row in next..<(next + size) {
                        try insertSingle(batch, fields: fields, field: pending[row].field, line: pending[row].line,
                                         location: location)
                    }
                }
                next += size
            }
        }
        for row in next..<count {
            try insertSingle(batch, fields: fields, field: pending[row].field, line: pending[row].line, location: location)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func insertSingle(_ batch: ImportBatch, fields: BatchFields, field: Int, line: Int,
                                       location: (Int) -> SourceLocation) throws {
        boundBatch = batch
        bind(statement, parameterOffset: 0, fields: fields, field: field)
        try step(statement, line: line, location: location)
    }

    private mutating func step(_ statement: OpaquePointer, line: Int, location: (Int) -> SourceLocation) throws {
        sqlite3_step(statement)
        if sqlite3_reset(statement) != SQLITE_OK {
            throw Diagnostic.error("INSERT failed: \(String(cString: sqlite3_errmsg(db)))", at: location(line))
        }
        rows += 1
    }

    /// Binds the record whose first field is `field` to parameters `parameterOffset + 1…`.
    private func bind(_ statement: OpaquePointer, parameterOffset: Int32, fields: BatchFields, field: Int) {
        for column in 0..<columnCount {
            let parameter = parameterOffset + Int32(column + 1)
            let length = fields.lengths[field + column]
            if length < 0 {
                sqlite3_bind_null(statement, parameter)
            } else {
                let pointer = fields.base + fields.starts[field + column]
                // Bound as a C string by the shell: a NUL byte ends the value.
                var textLength = length
                if fields.checkNul, length > 0, let nul = memchr(pointer, 0, length) {
                    textLength = UnsafeRawPointer(nul) - UnsafeRawPointer(pointer)
                }
                sqlite3_bind_text(statement, parameter, UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self),
                                  Int32(textLength), sqliteStatic)
            }
        }
    }
}

/// `close(2)`, out of reach of the session's own names.
private func closeFile(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
