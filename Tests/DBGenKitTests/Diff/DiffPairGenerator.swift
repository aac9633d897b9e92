// Every randomElement here is of a non-empty literal, so it always gives one.
// swift-format-ignore-file: NeverForceUnwrap

import Foundation
import SQLiteCore
import ShipyardTestSupport

/// Builds seeded pairs of databases (OLD, NEW) for the diff tests: NEW is OLD with rows
/// updated, deleted and inserted, and optionally schema changes.
struct DiffPairGenerator {
    /// Which values the rows may hold.
    enum Values {
        /// Values sqldiff's SQL carries exactly (REALs of up to 15 digits, no integer↔real flips).
        case sqldiffSafe
        /// Everything: REAL edge values, -0.0, NaN (which SQLite stores as NULL), huge integers,
        /// invalid UTF-8, NULs, type flips.
        case edgeCases
    }

    var generator: SeededGenerator
    var values: Values

    init(seed: UInt64, values: Values) {
        generator = SeededGenerator(seed: seed)
        self.values = values
    }

    /// The tables: rowid with alias, rowid without a key, WITHOUT ROWID with a composite
    /// key, a NOCASE DESC key, and a quoted odd name.
    static let tables: [(name: String, sql: String, keyed: Bool)] = [
        ("items", "CREATE TABLE items(id INTEGER PRIMARY KEY, a, b REAL, c TEXT, d BLOB, e NUMERIC)", true),
        ("nokey", "CREATE TABLE nokey(x, y, z)", false),
        ("pairs", "CREATE TABLE pairs(k TEXT, n INTEGER, v, PRIMARY KEY(k, n)) WITHOUT ROWID", true),
        ("names", "CREATE TABLE names(k TEXT COLLATE NOCASE PRIMARY KEY DESC, v) WITHOUT ROWID", true),
        ("odd \"t\" 'x'", "CREATE TABLE \"odd \"\"t\"\" 'x'\"(\"select\" INTEGER PRIMARY KEY, \"a b\", \"ü\")", true),
    ]

    mutating func value() -> DatabaseValue {
        let reals: [Double] =
            values == .edgeCases
            ? [
                256.09000000000003, -0.0, 0.0, 1e308, -1e308, .leastNonzeroMagnitude, 2.2250738585072014e-308,
                0.1 + 0.2, 1.0, -1.5, .infinity, -.infinity, 1e16, 123456789.123456789, .nan,
            ]
            : [0.5, -1.25, 3.14159, 100.0, 1e10, -0.001, 256.09]
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return .null
        case 1: return .integer(Int64.random(in: -1000...1000, using: &generator))
        case 2:
            return values == .edgeCases
                ? [.integer(.max), .integer(.min), .integer(0), .integer(-1)].randomElement(using: &generator)!
                : .integer(Int64.random(in: -1_000_000_000...1_000_000_000, using: &generator))
        case 3: return .real(reals.randomElement(using: &generator)!)
        case 4:
            if values == .edgeCases {
                return .real(
                    Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF | (generator.next() & (1 << 63))))
            }
            return .real(Double(Int.random(in: -99999...99999, using: &generator)) / 8)
        case 5:
            return .text(
                ["", "it's", "line\nbreak", "ünïcödé 日本", "1", "2.5", "a\"b", "  12 ", "NULL"].randomElement(
                    using: &generator)!)
        case 6:
            return .text(
                String(
                    (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                        "abcXYZ '".randomElement(using: &generator)!
                    }))
        case 7:
            return .blob(
                Data(
                    (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }))
        default:
            if values == .edgeCases { return .blob(Data([0x66, 0x00, 0xFF])) }
            return .text("t\(Int.random(in: 0...50, using: &generator))")
        }
    }

    /// Writes OLD and NEW (`rows` rows per table before changes).
    mutating func makePair(old: String, new: String, rows: Int, schemaChanges: Bool) throws {
        try makeOld(old, rows: rows)
        try FileManager.default.copyItem(atPath: old, toPath: new)
        try mutate(new, schemaChanges: schemaChanges)
    }

    private mutating func makeOld(_ path: String, rows: Int) throws {
        let db = try Connection(path: path, create: true)
        try db.inTransaction {
            for table in Self.tables { try db.execute(table.sql) }
            try db.execute("CREATE INDEX items_c ON items(c)")
            try db.execute("CREATE VIEW item_names AS SELECT id, c FROM items")
            try db.execute("CREATE TABLE log(n INTEGER PRIMARY KEY AUTOINCREMENT, what)")
            try db.execute(
                "CREATE TRIGGER items_log AFTER INSERT ON items BEGIN INSERT INTO log(what) VALUES('insert'); END")
            for _ in 0..<rows { try insertRandomRows(db) }
            try db.execute("PRAGMA user_version = 3")
        }
    }

    private mutating func insertRandomRows(_ db: Connection) throws {
        try db.execute(
            "INSERT OR IGNORE INTO items(id, a, b, c, d, e) VALUES(?, ?, ?, ?, ?, ?)",
            [.integer(Int64.random(in: 1...100_000, using: &generator)), value(), value(), value(), value(), value()])
        try db.execute("INSERT INTO nokey VALUES(?, ?, ?)", [value(), value(), value()])
        try db.execute(
            "INSERT OR IGNORE INTO pairs VALUES(?, ?, ?)",
            [
                .text("k\(Int.random(in: 0...30, using: &generator))"),
                .integer(Int64.random(in: 0...30, using: &generator)), value(),
            ])
        try db.execute(
            "INSERT OR IGNORE INTO names VALUES(?, ?)",
            [
                .text(
                    ["Ab", "aB", "b", "C ", "c", "é"].randomElement(using: &generator)!
                        + "\(Int.random(in: 0...40, using: &generator))"), value(),
            ])
        try db.execute(
            "INSERT OR IGNORE INTO \"odd \"\"t\"\" 'x'\" VALUES(?, ?, ?)",
            [.integer(Int64.random(in: -50...50, using: &generator)), value(), value()])
    }

    private mutating func mutate(_ path: String, schemaChanges: Bool) throws {
        let db = try Connection(path: path)
        try db.inTransaction {
            let items = try db.query("SELECT id FROM items").compactMap { row -> Int64? in
                if case .integer(let id) = row[0] { return id } else { return nil }
            }
            for id in items {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: try db.execute("DELETE FROM items WHERE id = ?", [.integer(id)])
                case 1, 2:
                    let column = ["a", "b", "c", "d", "e"].randomElement(using: &generator)!
                    try db.execute("UPDATE items SET \(column) = ? WHERE id = ?", [value(), .integer(id)])
                case 3 where values == .edgeCases:
                    try db.execute("UPDATE items SET a = CAST(a AS TEXT) WHERE id = ?", [.integer(id)])
                default: break
                }
            }
            try db.execute("DELETE FROM nokey WHERE rowid % 7 = 0")
            try db.execute("UPDATE nokey SET y = ? WHERE rowid % 5 = 0", [value()])
            try db.execute("DELETE FROM pairs WHERE n % 6 = 0")
            try db.execute("UPDATE pairs SET v = ? WHERE n % 4 = 1", [value()])
            try db.execute("UPDATE names SET k = upper(k) WHERE length(k) % 3 = 0")
            for _ in 0..<5 { try insertRandomRows(db) }
            try db.execute("PRAGMA user_version = 4")
            if schemaChanges { try changeSchema(db) }
        }
    }

    private mutating func changeSchema(_ db: Connection) throws {
        try db.execute("ALTER TABLE nokey ADD COLUMN added DEFAULT 7")
        try db.execute("DROP INDEX items_c")
        try db.execute("CREATE INDEX items_e ON items(e, c)")
        try db.execute("DROP VIEW item_names")
        try db.execute("CREATE VIEW item_names AS SELECT id, c, e FROM items")
        try db.execute("CREATE TABLE fresh(id INTEGER PRIMARY KEY, v)")
        try db.execute("INSERT INTO fresh VALUES(1, ?), (2, ?)", [value(), value()])
        try db.execute("DROP TRIGGER items_log")
        try db.execute(
            "CREATE TRIGGER items_log AFTER DELETE ON items BEGIN INSERT INTO log(what) VALUES('delete'); END")
    }
}
