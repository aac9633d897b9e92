import Foundation
import SQLiteCore
import ShipyardTestSupport

/// Builds seeded pairs of databases (OLD, NEW) for the record-merge tests: rowid tables of
/// many leaf pages with rowid gaps, overflowing rows, REAL edge values, NULLs and blobs (from
/// ``DiffPairGenerator``'s values), a table keyed by its hidden rowid, a WITHOUT ROWID table,
/// rows whose bytes change but not their values, and NEW in its own page size, text encoding
/// or journal mode.
struct RecordPairGenerator {
    /// How the two files are laid out.
    struct Shape {
        var oldPageSize = 1024
        var newPageSize = 1024
        var oldEncoding = "UTF-8"
        var newEncoding = "UTF-8"
        /// NEW in WAL mode.
        var newInWAL = false
    }

    /// What NEW changes.
    enum Change {
        /// One row of `big`, in the middle: one leaf page differs.
        case oneRow
        /// Every row of `big`.
        case everyRow
        /// Rows updated, deleted and inserted all over, overflow tails, type changes, rows
        /// rewritten with the same values.
        case scattered
    }

    let seed: UInt64
    var shape = Shape()
    var rows = 1500

    /// Writes OLD and NEW.
    func makePair(old: String, new: String, change: Change) throws {
        try makeDatabase(old, pageSize: shape.oldPageSize, encoding: shape.oldEncoding)
        if shape.newEncoding == shape.oldEncoding {
            try FileManager.default.copyItem(atPath: old, toPath: new)
            if shape.newPageSize != shape.oldPageSize {
                try Connection(path: new).execute("PRAGMA page_size = \(shape.newPageSize); VACUUM")
            }
        } else {
            // ATTACH needs one encoding: NEW is made again from the same seed.
            try makeDatabase(new, pageSize: shape.newPageSize, encoding: shape.newEncoding)
        }
        let db = try Connection(path: new)
        if shape.newInWAL { try db.execute("PRAGMA journal_mode = WAL") }
        var generator = DiffPairGenerator(seed: seed &+ 1, values: .edgeCases)
        try db.inTransaction {
            switch change {
            case .oneRow:
                try db.execute(
                    "UPDATE big SET a = ? WHERE id = (SELECT id FROM big ORDER BY id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM big))",
                    [.text("changed")])
            case .everyRow:
                try db.execute("UPDATE big SET a = 'every ' || id")
            case .scattered:
                try scatter(db, &generator)
            }
            try db.execute("PRAGMA user_version = 8")
        }
    }

    private func makeDatabase(_ path: String, pageSize: Int, encoding: String) throws {
        var generator = DiffPairGenerator(seed: seed, values: .edgeCases)
        let db = try Connection(path: path, create: true)
        try db.execute("PRAGMA page_size = \(pageSize); PRAGMA encoding = '\(encoding)'")
        try db.inTransaction {
            try db.execute(
                """
                CREATE TABLE big(id INTEGER PRIMARY KEY, a, b REAL, c TEXT, d BLOB);
                CREATE TABLE plain(x, y);
                CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
                CREATE TABLE same(id INTEGER PRIMARY KEY, v);
                CREATE TABLE widened(id INTEGER PRIMARY KEY, a);
                CREATE INDEX big_c ON big(c);
                """)
            var id: Int64 = 0
            for row in 0..<rows {
                id += Int64.random(in: 1...4, using: &generator.generator) // rowid gaps
                let d: DatabaseValue =
                    row % 37 == 0
                    ? .blob(
                        Data(
                            (0..<Int.random(in: 1500...9000, using: &generator.generator)).map {
                                UInt8(truncatingIfNeeded: $0 &* 31)
                            }))
                    : generator.value()
                try db.execute(
                    "INSERT INTO big VALUES(?, ?, ?, ?, ?)",
                    [.integer(id), generator.value(), generator.value(), generator.value(), d])
                if row % 3 == 0 {
                    try db.execute("INSERT INTO plain VALUES(?, ?)", [generator.value(), generator.value()])
                    try db.execute(
                        "INSERT OR IGNORE INTO keyed VALUES(?, ?)", [.text("k\(row % 500)"), generator.value()])
                    try db.execute("INSERT INTO same VALUES(?, ?)", [.integer(id), generator.value()])
                    try db.execute("INSERT INTO widened VALUES(?, ?)", [.integer(id), generator.value()])
                }
            }
            // Records written before this have no `z`: it is the default where they are read.
            try db.execute("ALTER TABLE widened ADD COLUMN z DEFAULT 5")
            try db.execute("PRAGMA user_version = 7")
        }
    }

    private func scatter(_ db: Connection, _ generator: inout DiffPairGenerator) throws {
        let ids = try db.query("SELECT id FROM big").compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { return id } else { return nil }
        }
        for id in ids {
            switch Int.random(in: 0..<100, using: &generator.generator) {
            case 0..<2: try db.execute("DELETE FROM big WHERE id = ?", [.integer(id)])
            case 2..<5:
                let column = ["a", "b", "c", "d"].randomElement(using: &generator.generator)!
                try db.execute("UPDATE big SET \(column) = ? WHERE id = ?", [generator.value(), .integer(id)])
            case 5: try db.execute("UPDATE big SET a = CAST(a AS TEXT) WHERE id = ?", [.integer(id)])
            case 6: try db.execute("UPDATE big SET b = b + 0, c = c WHERE id = ?", [.integer(id)]) // same values
            case 7: try db.execute("INSERT OR IGNORE INTO big(id, a) VALUES(?, 'between')", [.integer(id + 1)])
            default: break
            }
        }
        // Overflowing rows: the last byte only (the part kept on the leaf is the same).
        for row in try db.query("SELECT id, d FROM big WHERE typeof(d) = 'blob' AND length(d) > 1400 AND id % 2 = 0") {
            guard case .blob(var bytes) = row[1] else { continue }
            bytes[bytes.count - 1] ^= 0xFF
            try db.execute("UPDATE big SET d = ? WHERE id = ?", [.blob(bytes), row[0]])
        }
        try db.execute("INSERT INTO big(id, a, d) VALUES((SELECT max(id) + 1000 FROM big), 'last', zeroblob(5000))")
        try db.execute("DELETE FROM plain WHERE rowid % 7 = 0")
        try db.execute("UPDATE plain SET y = ? WHERE rowid % 5 = 0", [generator.value()])
        try db.execute("INSERT INTO plain VALUES(?, ?)", [generator.value(), generator.value()])
        try db.execute("UPDATE keyed SET v = ? WHERE substr(k, 2) % 4 = 1", [generator.value()])
        try db.execute("DELETE FROM keyed WHERE k LIKE 'k1%'")
        // Rewritten records now hold z = 5 themselves: other bytes, the same values.
        try db.execute("UPDATE widened SET a = a WHERE id % 3 = 0")
        try db.execute("UPDATE widened SET a = ? WHERE id % 11 = 0", [generator.value()])
    }
}
