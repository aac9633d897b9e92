import CSQLite

/// Questions about SQL text that SQLite's own tokenizer answers.
package enum SQLText {
    /// True when `word` is an SQL keyword (`sqlite3_keyword_check`), so that an identifier
    /// spelled like it must be quoted.
    package static func isKeyword(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        return utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_keyword_check($0.baseAddress, Int32($0.count)) != 0 }
        }
    }
}
