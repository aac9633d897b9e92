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
            let rc = sql.withUnsafeBufferPointer { buffer -> Int32 in
                var text = Array(buffer)
                text.append(0)
                return text.withUnsafeBufferPointer {
                    sqlite3_exec(db, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil, nil, nil)
                }
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

    /// The shell's record loop. Fields go to one of two arenas, bound in place: the arena of
    /// the last bound record is never written while its bindings may still be used (the shell
    /// re-inserts stale bindings in one ascii-mode corner case, so this does too).
    private mutating func insertRows(columnCount nCol: Int) throws -> Int {
        guard let insert else { return 0 }
        // `arena` receives the record being read; `boundArena` holds the last bound one.
        var arena = ImportByteArena()
        var boundArena = ImportByteArena()
        defer { arena.release(); boundArena.release() }
        var starts = [Int](repeating: 0, count: nCol)
        var lengths = [Int](repeating: -1, count: nCol)   // -1: NULL
        let columnSeparator = reader.columnSeparator
        let emptyFirstFieldEnds = request.format.emptyFirstFieldEndsRecord
        let progressStep: Int64 = 4 << 20
        var nextProgress = progressStep
        var rows = 0
        progress?(0, totalBytes)

        repeat {
            let startLine = reader.line
            arena.reset()
            var i = 0
            var bound = false
            while i < nCol {
                let start = arena.count
                let notNull = reader.readField(into: &arena)
                if !notNull && i == 0 { break }
                let length = arena.count - start
                if emptyFirstFieldEnds && i == 0 && (!notNull || length == 0 || arena[start] == 0) { break }
                starts[i] = start
                lengths[i] = notNull ? length : -1
                bound = true
                if i < nCol - 1 && reader.terminator != columnSeparator {
                    try drainReaderEvents()
                    try warn("expected \(nCol) columns but found \(i + 1) - filling the rest with NULL", line: startLine)
                    for j in (i + 1)..<nCol { lengths[j] = -1 }
                    i = nCol + 1
                }
                i += 1
            }
            if reader.terminator == columnSeparator {
                let keep = arena.count
                repeat {
                    _ = reader.readField(into: &arena)
                    arena.truncate(to: keep)
                    i += 1
                } while reader.terminator == columnSeparator
                try drainReaderEvents()
                try warn("expected \(nCol) columns but found \(i) - extras ignored", line: startLine)
            }
            try drainReaderEvents()
            if i >= nCol {
                if bound {
                    let base = arena.base
                    for column in 0..<nCol {
                        let length = lengths[column]
                        if length < 0 {
                            sqlite3_bind_null(insert, Int32(column + 1))
                        } else {
                            let pointer = base + starts[column]
                            // Bound as a C string by the shell: a NUL byte ends the value.
                            var textLength = length
                            if length > 0, let nul = memchr(pointer, 0, length) {
                                textLength = UnsafeRawPointer(nul) - UnsafeRawPointer(pointer)
                            }
                            sqlite3_bind_text(insert, Int32(column + 1),
                                              UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self),
                                              Int32(textLength), sqliteStatic)
                        }
                    }
                    swap(&arena, &boundArena)
                }
                sqlite3_step(insert)
                if sqlite3_reset(insert) != SQLITE_OK {
                    throw Diagnostic.error("INSERT failed: \(errorMessage())", at: location(startLine))
                }
                rows += 1
            }
            if reader.bytesRead >= nextProgress, let progress {
                progress(reader.bytesRead, totalBytes)
                nextProgress = reader.bytesRead + progressStep
            }
        } while reader.terminator != ImportFieldReader.endOfFile
        try checkReadError()
        progress?(reader.bytesRead, totalBytes)
        return rows
    }
}

/// `close(2)`, out of reach of the session's own names.
private func closeFile(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
