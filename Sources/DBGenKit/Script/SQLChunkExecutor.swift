#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// Runs the SQL of one script chunk as the shell's `shell_exec` does: prepares and steps every
/// statement in turn (rows are discarded), and turns a failure into a ``DBGenError`` located at
/// the script line and column SQLite points at.
struct SQLChunkExecutor {
    let connection: Connection
    /// The script's path as shown to the user.
    let scriptPath: String
    /// Receives the warning about a last statement without `;`; throwing stops the run.
    let diagnostics: DiagnosticHandler
    /// Says why an action was refused (SQLite only reports `SQLITE_AUTH`).
    let authorizer: BuildAuthorizer
    /// Told where each statement that inserted into a declaration table ran.
    var declarationSites: DeclarationSites?

    /// Runs every statement of `chunk`. `complete` is false for text left at end of file that
    /// `sqlite3_complete` does not call complete.
    func execute(_ chunk: SQLChunk, complete: Bool) throws {
        var text = chunk.text
        text.append(0)
        try text.withUnsafeBufferPointer { buffer in
            // Text holds at least the NUL appended above, so it has a base address.
            // swift-format-ignore: NeverForceUnwrap
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            let end = chunk.text.count
            while offset < end {
                let statementStart = offset + leadingTrivia(chunk.text, from: offset)
                let prepared: PreparedPrefix
                authorizer.reset()
                do {
                    prepared = try connection.prepareFirst(of: base + offset, byteCount: end - offset)
                } catch let error as SQLiteError {
                    if let refusal = refusal(error, chunk: chunk, statementStart: statementStart) { throw refusal }
                    throw compileError(
                        error, chunk: chunk, complete: complete, offset: offset,
                        statementStart: statementStart)
                }
                let next = offset + prepared.consumedBytes
                defer { offset = max(next, offset + 1) }
                guard let statement = prepared.statement else { continue }
                try step(statement, chunk: chunk, statementStart: statementStart)
                if !complete && next >= end - trailingTrivia(chunk.text) {
                    try diagnostics(
                        Diagnostic.warning(
                            "statement at end of file is not terminated by ';'",
                            at: location(chunk, statementStart)))
                }
            }
        }
    }

    /// Binds the shell's parameters, then steps the statement to its end. A statement that
    /// ran the `journal_mode` pragma (SQLite asked the authorizer about it) and answered `wal`
    /// gets a warning.
    private func step(_ statement: Statement, chunk: SQLChunk, statementStart: Int) throws {
        var firstValue: DatabaseValue?
        do {
            if let reason = try authorizer.refusal(toRun: statement) {
                throw DBGenError(.refused, "refused: \(reason)", at: location(chunk, statementStart))
            }
            try ShellParameters(connection: connection).bind(statement)
            while try statement.step() {
                if firstValue == nil && statement.columnCount > 0 { firstValue = statement.column(0) }
            }
            if let declarationSites, !authorizer.tablesInserted.isEmpty {
                declarationSites.statementRan(
                    at: location(chunk, statementStart), inserted: authorizer.tablesInserted, on: connection)
            }
        } catch let error as SQLiteError {
            if let refusal = refusal(error, chunk: chunk, statementStart: statementStart) { throw refusal }
            throw DBGenError(.sql, error.message, at: location(chunk, statementStart))
        }
        if authorizer.pragmasAsked.contains("journal_mode"), case .text(let mode)? = firstValue,
            mode.lowercased() == "wal"
        {
            try diagnostics(
                Diagnostic.warning(
                    "journal_mode=WAL is not kept: the output is sealed in rollback-journal mode, because a WAL database cannot be opened read-only from an app bundle",
                    at: location(chunk, statementStart)))
        }
    }

    /// The build authorizer's reason when the statement failed because of it: its own record
    /// (reset before each statement) says so, not SQLite's code, which is `SQLITE_AUTH` for a
    /// refused action but `SQLITE_ERROR` for a refused function. It refuses when a statement is
    /// prepared, or when SQLite prepares one of its own while running (the ATTACH inside VACUUM
    /// INTO).
    private func refusal(_ error: SQLiteError, chunk: SQLChunk, statementStart: Int) -> DBGenError? {
        guard let reason = authorizer.lastRefusal else { return nil }
        return DBGenError(.refused, "refused: \(reason)", at: location(chunk, statementStart))
    }

    /// The error at the byte SQLite points at (``SQLiteError/offset``), or at the statement's
    /// start when it points at none: "incomplete input" at end of file, or any error on an
    /// Apple system whose SQLite has no `sqlite3_error_offset` (before macOS 13 / iOS 16).
    private func compileError(
        _ error: SQLiteError, chunk: SQLChunk, complete: Bool, offset: Int,
        statementStart: Int
    ) -> DBGenError {
        let position = error.offset.map { offset + $0 } ?? statementStart
        let message = complete ? error.message : "unterminated statement at end of file (\(error.message))"
        return DBGenError(.sql, message, at: location(chunk, position))
    }

    private func location(_ chunk: SQLChunk, _ byte: Int) -> SourceLocation {
        let position = chunk.position(ofByte: byte)
        return SourceLocation(path: scriptPath, line: position.line, column: position.column)
    }

    /// Bytes of whitespace at `offset` (where the statement's own text starts).
    private func leadingTrivia(_ text: [UInt8], from offset: Int) -> Int {
        var index = offset
        while index < text.count, DotCommandTokenizer.isSpace(text[index]) { index += 1 }
        return index - offset
    }

    private func trailingTrivia(_ text: [UInt8]) -> Int {
        var count = 0
        while count < text.count, DotCommandTokenizer.isSpace(text[text.count - 1 - count]) { count += 1 }
        return count
    }
}
