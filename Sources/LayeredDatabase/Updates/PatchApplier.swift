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
import FileSystemKit
import SQLiteCore

/// Runs a `dbgen diff` patch on a copy of the database in effect, in one transaction, and
/// lets it change nothing but that copy:
/// - ATTACH/DETACH, and so `VACUUM INTO` (which attaches its output), are refused by the
///   authorizer, as are `load_extension()` and other functions that reach outside, and any
///   pragma but `user_version` / `application_id`;
/// - extension loading is off on the connection;
/// - the patch controls no transaction, however it is written: what is a transaction
///   statement is SQLite's answer (its authorizer reports `SQLITE_TRANSACTION` and
///   `SQLITE_SAVEPOINT` as it prepares each statement), never a reading of the text. The
///   patch's own `BEGIN` and `COMMIT` (or `END`) are skipped, as the whole patch is one
///   transaction; `ROLLBACK`, `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` are refused; and a
///   statement after which the transaction is no longer open is refused too. `VACUUM`, which
///   SQLite runs only outside a transaction, therefore always fails, and is reported refused.
///
/// The patch is read in pieces and run a statement at a time (``StatementBoundary`` tells
/// where one ends, each byte looked at once), so a large patch is never held in memory and
/// the time it takes grows with its size, whatever its shape.
struct PatchApplier {
    let patchPath: String

    private static let refusedFunctions: Set<String> = [
        "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer",
    ]
    private static let allowedPragmas: Set<String> = ["user_version", "application_id"]
    private static let readSize = 1 << 20

    func apply(to connection: Connection) throws {
        guard let file = ReadableFile(path: patchPath) else {
            throw LayeredDatabaseError.fileNotFound(path: patchPath)
        }
        try connection.setEnabled(.loadExtension, false)
        try connection.execute("BEGIN IMMEDIATE")
        let note = AuthorizerNote() // set after the BEGIN above, which is the applier's, not the patch's
        try connection.setAuthorizer { request in
            if let control = TransactionControl(request) {
                note.control = control
                return .allow // noted: never stepped (see `run`)
            }
            if let reason = Self.refusal(for: request) {
                note.refusal = reason
                return .deny
            }
            return .allow
        }
        defer { try? connection.setAuthorizer(nil) }
        do {
            try forEachChunk(of: file) { sql, firstLine in
                try run(sql, firstLine: firstLine, on: connection, note: note)
            }
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Hands `body` the patch cut after each line that ends a complete statement (several
    /// statements on one line stay together), with the number of the chunk's first line; what
    /// is left at the end, if more than whitespace, is handed over with a `;` added.
    private func forEachChunk(of file: ReadableFile, _ body: (String, Int) throws -> Void) throws {
        var boundary = StatementBoundary()
        var pending: [UInt8] = []
        var line = 1, startLine = 1
        while true {
            let chunk = try file.read(atMost: Self.readSize)
            if chunk.isEmpty { break }
            for byte in chunk {
                if byte == 0 {
                    throw LayeredDatabaseError.patchRefused(
                        path: patchPath, line: line, reason: "a NUL byte (a patch is SQL text)")
                }
                pending.append(byte)
                boundary.feed(byte)
                guard byte == 0x0A else { continue }
                line += 1
                if boundary.isComplete {
                    try body(String(decoding: pending, as: UTF8.self), startLine)
                    pending.removeAll(keepingCapacity: true)
                    boundary.reset()
                    startLine = line
                }
            }
        }
        if pending.contains(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) {
            try body(String(decoding: pending, as: UTF8.self) + ";", startLine)
        }
    }

    private func run(_ sql: String, firstLine: Int, on connection: Connection, note: AuthorizerNote) throws {
        var line = firstLine
        var currentSQL: String?
        do {
            try connection.forEachStatement(sql) { statement, offset in
                line = firstLine + offset - 1
                currentSQL = statement.sql
                defer { note.control = nil }
                if let control = note.control {
                    guard control.isSkipped else {
                        throw LayeredDatabaseError.patchRefused(
                            path: patchPath, line: line,
                            reason: "\(control) (a patch runs in one transaction and may not control it)")
                    }
                    return
                }
                while try statement.step() {}
                guard connection.isInTransaction else {
                    throw LayeredDatabaseError.patchRefused(
                        path: patchPath, line: line, reason: "the statement ended the patch's transaction")
                }
            }
        } catch let error as SQLiteError {
            if let reason = note.refusal, error.resultCode == .SQLITE_AUTH || error.resultCode == .SQLITE_ERROR {
                throw LayeredDatabaseError.patchRefused(path: patchPath, line: line, reason: reason)
            }
            if let currentSQL, Self.isVacuum(currentSQL, on: connection) {
                throw LayeredDatabaseError.patchRefused(
                    path: patchPath, line: line, reason: "VACUUM (VACUUM INTO writes another file)")
            }
            throw LayeredDatabaseError.patchFailed(path: patchPath, line: line, message: error.message)
        }
    }

    /// Whether SQLite compiles `sql` to a VACUUM (its program has the `Vacuum` instruction).
    private static func isVacuum(_ sql: String, on connection: Connection) -> Bool {
        ((try? connection.program(of: sql)) ?? []).contains { $0.opcode == "Vacuum" }
    }

    /// Why the patch may not do what `request` asks, or nil when it may.
    static func refusal(for request: AuthorizerRequest) -> String? {
        switch request.action {
        case .attach: return "ATTACH (a patch may change only its copy of the database)"
        case .detach: return "DETACH"
        case .function:
            let name = (request.argument2 ?? "").lowercased()
            return refusedFunctions.contains(name) ? "the function \(name)() reaches outside the database" : nil
        case .pragma:
            let name = (request.argument1 ?? "").lowercased()
            return allowedPragmas.contains(name)
                ? nil : "PRAGMA \(name) (only user_version and application_id may be set)"
        default:
            return nil
        }
    }
}

/// A statement that controls a transaction, as SQLite's authorizer reports it while preparing:
/// `SQLITE_TRANSACTION` (`BEGIN`, `COMMIT` for both COMMIT and END, `ROLLBACK`) or
/// `SQLITE_SAVEPOINT` (`BEGIN` for SAVEPOINT, `RELEASE`, `ROLLBACK` for ROLLBACK TO).
struct TransactionControl: Equatable, CustomStringConvertible {
    let isSavepoint: Bool
    /// The operation as SQLite names it.
    let operation: String

    init?(_ request: AuthorizerRequest) {
        switch request.action {
        case .transaction: isSavepoint = false
        case .savepoint: isSavepoint = true
        default: return nil
        }
        operation = (request.argument1 ?? "").uppercased()
    }

    /// `BEGIN` and `COMMIT`: the patch's own transaction, which the applier already holds.
    var isSkipped: Bool { !isSavepoint && (operation == "BEGIN" || operation == "COMMIT") }

    var description: String {
        guard isSavepoint else { return operation }
        switch operation {
        case "BEGIN": return "SAVEPOINT"
        case "ROLLBACK": return "ROLLBACK TO"
        default: return operation
        }
    }
}

/// What the authorizer saw while the current statement was prepared.
private final class AuthorizerNote {
    /// The transaction statement it is, if it is one.
    var control: TransactionControl?
    /// What it last refused, read when the statement then fails.
    var refusal: String?
}
