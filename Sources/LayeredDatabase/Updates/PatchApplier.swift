#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteCore
import EssentialsSupport
import FileSystemKit

/// Runs a `dbgen diff` patch on a copy of the database in effect, in one transaction, and
/// lets it change nothing but that copy:
/// - ATTACH/DETACH, and so `VACUUM INTO` (which attaches its output), are refused by the
///   authorizer, as are `load_extension()` and other functions that reach outside, and any
///   pragma but `user_version` / `application_id`;
/// - extension loading is off on the connection;
/// - the patch's own `BEGIN`/`COMMIT` are skipped (the whole patch is one transaction);
///   any other transaction statement (ROLLBACK, SAVEPOINT, RELEASE) and any VACUUM is refused.
///
/// The patch is read a line at a time and run a statement at a time (`sqlite3_complete`
/// tells where one ends), so a large patch is never held in memory.
struct PatchApplier {
    let patchPath: String

    private static let refusedFunctions: Set<String> = [
        "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer",
    ]
    private static let allowedPragmas: Set<String> = ["user_version", "application_id"]

    func apply(to connection: Connection) throws {
        guard let file = ReadableFile(path: patchPath) else {
            throw LayeredDatabaseError.fileNotFound(path: patchPath)
        }
        try connection.setEnabled(.loadExtension, false)
        let refusal = RefusalNote()
        try connection.setAuthorizer { request in
            if let reason = Self.refusal(for: request) { refusal.reason = reason; return .deny }
            return .allow
        }
        defer { try? connection.setAuthorizer(nil) }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            var reader = LineReader(file: file)
            var pending = "", startLine = 1
            while let (line, number) = try reader.next() {
                if pending.isEmpty { startLine = number }
                pending += line
                guard SQLiteLibrary.isComplete(Array(pending.utf8)) else { continue }
                try run(pending, firstLine: startLine, on: connection, refusal: refusal)
                pending = ""
            }
            if !pending.trimmingWhitespaceAndNewlines().isEmpty {
                try run(pending + ";", firstLine: startLine, on: connection, refusal: refusal)
            }
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func run(_ sql: String, firstLine: Int, on connection: Connection, refusal: RefusalNote) throws {
        var line = firstLine
        do {
            try connection.forEachStatement(sql) { statement, offset in
                line = firstLine + offset - 1
                switch Self.leadingKeyword(statement.sql) {
                case "BEGIN", "COMMIT", "END": return
                case "ROLLBACK", "SAVEPOINT", "RELEASE":
                    throw LayeredDatabaseError.patchRefused(
                        path: patchPath, line: line, reason: "a patch runs in one transaction and may not control it")
                case "VACUUM":
                    throw LayeredDatabaseError.patchRefused(
                        path: patchPath, line: line, reason: "VACUUM (VACUUM INTO writes another file)")
                default:
                    while try statement.step() {}
                }
            }
        } catch let error as SQLiteError {
            if let reason = refusal.reason, error.resultCode == .SQLITE_AUTH || error.resultCode == .SQLITE_ERROR {
                throw LayeredDatabaseError.patchRefused(path: patchPath, line: line, reason: reason)
            }
            throw LayeredDatabaseError.patchFailed(path: patchPath, line: line, message: error.message)
        }
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

    /// The first word of a statement, upper-cased, after whitespace and comments.
    static func leadingKeyword(_ sql: String) -> String {
        var rest = Substring(sql)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("--") { rest = rest.drop { $0 != "\n" }; continue }
            if rest.hasPrefix("/*") {
                guard let end = rest.range(ofText: "*/") else { return "" }
                rest = rest[end.upperBound...]
                continue
            }
            break
        }
        return String(rest.prefix { $0.isLetter }).uppercased()
    }
}

/// What the authorizer last refused, read when the statement then fails.
private final class RefusalNote {
    var reason: String?
}

/// Reads a file a line at a time (lines keep their `\n`), in 1 MiB pieces.
struct LineReader {
    let file: ReadableFile
    private var buffer: [UInt8] = []
    private var position = 0
    private var lineNumber = 0
    private var finished = false

    init(file: ReadableFile) { self.file = file }

    mutating func next() throws -> (String, Int)? {
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[position...newline], as: UTF8.self)
                position = newline + 1
                lineNumber += 1
                return (line, lineNumber)
            }
            if finished {
                guard position < buffer.count else { return nil }
                let line = String(decoding: buffer[position...], as: UTF8.self)
                position = buffer.count
                lineNumber += 1
                return (line, lineNumber)
            }
            buffer.removeFirst(position)
            position = 0
            let chunk = try file.read(atMost: 1 << 20)
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
