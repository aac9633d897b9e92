import SQLiteCore

/// What the capture needs to know of a table of the user database, read from SQLite's catalog
/// with what SQLite 3.28 (iOS 13) has: `sqlite_master` (its newer name is 3.33+),
/// `pragma_table_xinfo` (3.26) and `pragma_index_list`.
struct TableShape {
    /// A column as `PRAGMA table_xinfo` describes it.
    struct Column {
        var name: String
        /// The declared type, as written.
        var declaredType: String
        var notNull: Bool
        /// The 1-based position in the primary key, 0 when not part of it.
        var primaryKeyPosition: Int
        /// A generated column (`hidden` 2 or 3): computed on each device, never synced.
        var isGenerated: Bool

        /// SQLite's type affinity of the declared type (the rules of "Determination Of Column
        /// Affinity", in their order).
        var affinity: Affinity { Affinity(declaredType: declaredType) }
    }

    /// SQLite's column affinities.
    enum Affinity: String {
        case integer = "INTEGER"
        case text = "TEXT"
        case blob = "BLOB"
        case real = "REAL"
        case numeric = "NUMERIC"

        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") || type.isEmpty {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }

    /// The name as the schema spells it.
    var name: String
    /// The `CREATE TABLE` statement.
    var sql: String
    var columns: [Column]
    /// True for `CREATE VIRTUAL TABLE`.
    var isVirtual: Bool
    /// True when the table has a rowid and its single INTEGER key is that rowid (an alias the
    /// database hands out on each device).
    var keyIsRowIDAlias: Bool

    /// The primary key's columns, in key order.
    var primaryKey: [Column] {
        columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
    }

    /// The column named `name` (ASCII case-insensitive, as SQLite compares), else nil.
    func column(named name: String) -> Column? {
        columns.first { $0.name.lowercased() == name.lowercased() }
    }

    /// True for a `WITHOUT ROWID` table (the words end with `WITHOUT ROWID`, maybe `, STRICT`).
    var isWithoutRowID: Bool {
        let tail = Array(SQLWords.words(sql).suffix(3))
        return zip(tail, tail.dropFirst()).contains { $0 == "WITHOUT" && $1 == "ROWID" }
    }

    /// True when the `CREATE TABLE` statement says `AUTOINCREMENT` (outside quotes and comments).
    var usesAutoincrement: Bool { SQLWords.contains("AUTOINCREMENT", in: sql) }

    /// The ordinary table or virtual table of the main database named `name`, else nil (a view,
    /// an index, nothing).
    static func read(_ name: String, on connection: Connection) throws -> TableShape? {
        let rows = try connection.query(
            "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
            [.text(name)])
        guard let row = rows.first, case .text(let actual) = row[0] else { return nil }
        let sql = row[1].shellText
        let isVirtual = SQLWords.startsWith(["CREATE", "VIRTUAL"], in: sql)
        var columns: [Column] = []
        if !isVirtual {
            for column in try connection.query(
                "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?, 'main') ORDER BY cid",
                [.text(actual)])
            {
                columns.append(
                    Column(
                        name: column[0].shellText, declaredType: column[1].shellText,
                        notNull: column[2] == .integer(1),
                        primaryKeyPosition: Int(column[3].integerValue ?? 0),
                        isGenerated: (column[4].integerValue ?? 0) >= 2))
            }
        }
        var shape = TableShape(name: actual, sql: sql, columns: columns, isVirtual: isVirtual, keyIsRowIDAlias: false)
        let key = shape.primaryKey
        if key.count == 1, key[0].declaredType.uppercased() == "INTEGER" {
            // A rowid alias has no index behind its key; a WITHOUT ROWID table, or a rowid table
            // keyed otherwise, has one whose origin is 'pk'.
            let keyIndexes = try connection.scalar(
                "SELECT count(*) FROM pragma_index_list(?, 'main') WHERE origin = 'pk'", [.text(actual)])
            shape.keyIsRowIDAlias = keyIndexes == .integer(0)
        }
        return shape
    }
}

extension DatabaseValue {
    /// The integer of an `.integer`, else nil.
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text of a `.text`, else nil.
    var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// The words of SQL text as SQLite's tokenizer sees them, roughly: quoted names, string
/// literals and comments are skipped, so a word inside them is not taken for a keyword.
enum SQLWords {
    /// The bare words of `sql`, uppercased.
    static func words(_ sql: String) -> [String] {
        var words: [String] = []
        let bytes = Array(sql.utf8)
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95
                || byte >= 128
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                index += 1
                while index < bytes.count {
                    if bytes[index] == close {
                        // A doubled quote is one quote inside the literal (not for [..]).
                        if close != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == close {
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != 10 { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index += 2
            default:
                if isWordByte(byte) {
                    let start = index
                    while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                    words.append(String(decoding: bytes[start..<index], as: UTF8.self).uppercased())
                } else {
                    index += 1
                }
            }
        }
        return words
    }

    /// True when `word` (uppercase) is one of the bare words of `sql`.
    static func contains(_ word: String, in sql: String) -> Bool { words(sql).contains(word) }

    /// True when the bare words of `sql` start with `prefix` (uppercase).
    static func startsWith(_ prefix: [String], in sql: String) -> Bool { words(sql).starts(with: prefix) }
}
