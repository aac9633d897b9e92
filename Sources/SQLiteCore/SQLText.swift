import Foundation
import CSQLite

/// Questions about SQL text that SQLite's own tokenizer answers.
public enum SQLText {
    /// True when `word` is an SQL keyword (`sqlite3_keyword_check`), so that an identifier
    /// spelled like it must be quoted.
    public static func isKeyword(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        return utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_keyword_check($0.baseAddress, Int32($0.count)) != 0 }
        }
    }
}

extension SQLIdentifier {
    /// `name` as it can appear in SQL: bare when it is a plain identifier (letters, digits,
    /// underscores, not starting with a digit, not a keyword), else double-quoted.
    public static func quoteIfNeeded(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, !(48...57).contains(first) else { return quote(name) }
        let plain = bytes.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        return plain && !SQLText.isKeyword(name) ? name : quote(name)
    }
}

extension Connection {
    /// Prepares the statements of `sql` one at a time and hands each to `body` unstepped
    /// (to inspect, step or skip), with the 1-based line of `sql` where it starts.
    public func forEachStatement(_ sql: String, _ body: (Statement, Int) throws -> Void) throws {
        let db = try openHandle()
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var cursor: UnsafePointer<CChar>? = UnsafePointer(base)
            var line = 1
            while let start = cursor, start.pointee != 0 {
                var raw: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let status = sqlite3_prepare_v2(db, start, -1, &raw, &tail)
                let end = tail ?? start.advanced(by: strlen(start))
                let text = String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self)
                var leading = 0
                for char in text.utf8 { if char == 10 { leading += 1 } else if char > 32 { break } }
                guard status == SQLITE_OK else { throw SQLiteError(database: db, sql: text) }
                cursor = tail
                defer { line += text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
                guard let raw else { continue }
                try body(Statement(handle: raw, database: db, sql: text), line + leading)
            }
        }
    }
}
