// A test generator: every randomElement it unwraps is drawn from a non-empty literal or list.
// swift-format-ignore-file: NeverForceUnwrap
import Foundation
import ShipyardTestSupport

/// A random table and file for the page writer's differential tests: the table `t` (declared
/// types of every affinity, maybe an INTEGER PRIMARY KEY, maybe NOT NULL columns, a page size
/// from 512 to 65536 bytes) and a CSV file for it.
struct ImportPageCase {
    /// How the INTEGER PRIMARY KEY's values run.
    enum KeyMode: CaseIterable {
        /// 1, 2, 3, …
        case sequential
        /// Rising with gaps, from a negative start, NULL now and then (the next rowid), spelled
        /// with leading zeros, spaces or `.0`.
        case rising
        /// Rising, then one key out of order (SQLite takes over there).
        case outOfOrder
        /// Rising, then a key that is already there (SQLite refuses it).
        case duplicate
        /// Rising, then a key that is not an integer (SQLite refuses it).
        case notAnInteger
    }

    var columns: [String]
    var keyColumn: Int?
    var pageSize: Int
    var separator: UInt8
    var keyMode: KeyMode = .sequential
    var records: [[String?]] = []
    /// Records short of fields (NULL-filled) or with extra ones.
    var raggedRecords = false
    var crlf = false

    var schemaSQL: String {
        "PRAGMA page_size=\(pageSize); CREATE TABLE t("
            + columns.enumerated().map { "c\($0.offset) \($0.element)" }
            .joined(separator: ", ") + ");"
    }

    var shellScript: String {
        let separator = separator == UInt8(ascii: "|") ? "|" : ","
        return schemaSQL + "\n.mode csv\n.separator \"\(separator)\"\n.import data.csv t\n"
    }

    /// The file: each field quoted when it must be (and now and then when it need not).
    var file: [UInt8] {
        var text: [UInt8] = []
        var generator = SeededGenerator(seed: UInt64(records.count) &+ 17)
        for record in records {
            for (index, field) in record.enumerated() {
                if index > 0 { text.append(separator) }
                guard let field else { continue }
                let bytes = Array(field.utf8)
                let mustQuote = bytes.contains { $0 == separator || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
                if mustQuote || Int.random(in: 0..<20, using: &generator) == 0 {
                    text.append(0x22)
                    for byte in bytes {
                        text.append(byte)
                        if byte == 0x22 { text.append(0x22) }
                    }
                    text.append(0x22)
                } else {
                    text += bytes
                }
            }
            text += crlf ? [0x0D, 0x0A] : [0x0A]
        }
        return text
    }

    static let declaredTypes = [
        "INTEGER", "INT", "BIGINT", "REAL", "DOUBLE", "FLOAT", "NUMERIC", "DECIMAL(10,2)", "DATE", "BOOLEAN", "TEXT",
        "VARCHAR(20)", "CHAR(1)", "CLOB", "BLOB", "", "ANY",
    ]

    static func random(using generator: inout SeededGenerator, rows: Int? = nil) -> ImportPageCase {
        let count = Int.random(in: 1...7, using: &generator)
        var columns = (0..<count).map { _ in declaredTypes.randomElement(using: &generator)! }
        for index in columns.indices where Int.random(in: 0..<8, using: &generator) == 0 {
            columns[index] += " NOT NULL"
        }
        var keyColumn: Int?
        if Int.random(in: 0..<5, using: &generator) < 2 {
            let index = Int.random(in: 0..<count, using: &generator)
            columns[index] = "INTEGER PRIMARY KEY"
            keyColumn = index
        }
        var testCase = ImportPageCase(
            columns: columns, keyColumn: keyColumn,
            pageSize: [512, 1024, 4096, 4096, 65536].randomElement(using: &generator)!,
            separator: Bool.random(using: &generator) ? UInt8(ascii: ",") : UInt8(ascii: "|"))
        let modes: [KeyMode] = [.sequential, .rising, .rising, .rising, .outOfOrder, .duplicate, .notAnInteger]
        testCase.keyMode = modes.randomElement(using: &generator)!
        testCase.raggedRecords = Int.random(in: 0..<6, using: &generator) == 0
        testCase.crlf = Int.random(in: 0..<6, using: &generator) == 0
        let recordCount = rows ?? [0, 1, 2, 3, 40, 150, 600, 1200].randomElement(using: &generator)!
        var key: Int64 = testCase.keyMode == .rising ? Int64.random(in: -50...5, using: &generator) : 0
        let trouble = Int.random(in: 1...max(recordCount, 1), using: &generator)
        for number in 0..<recordCount {
            var record: [String?] = columns.indices.map { index in
                field(for: columns[index], pageSize: testCase.pageSize, using: &generator)
            }
            if let keyColumn {
                key += testCase.keyMode == .sequential ? 1 : Int64.random(in: 1...3, using: &generator)
                var text = String(key)
                switch testCase.keyMode {
                case .sequential: break
                case .rising:
                    switch Int.random(in: 0..<12, using: &generator) {
                    case 1: text = key > 0 ? "00\(key)" : text
                    case 2: text = " \(key) "
                    case 3: text = "\(key).0"
                    default: break
                    }
                case .outOfOrder where number == trouble: text = String(key - 5)
                case .duplicate where number == trouble: text = String(key - 1)
                case .notAnInteger where number == trouble: text = "\(key).5"
                default: break
                }
                record[keyColumn] = text
            }
            if testCase.raggedRecords, Int.random(in: 0..<10, using: &generator) == 0 {
                if Bool.random(using: &generator) || record.count == 1 {
                    record.append("extra")
                } else {
                    record.removeLast(Int.random(in: 1..<record.count, using: &generator))
                }
            }
            testCase.records.append(record)
        }
        return testCase
    }

    /// A field for a column of `type`: mostly the kind of value the type suggests, now and then
    /// any other.
    static func field(for type: String, pageSize: Int, using generator: inout SeededGenerator) -> String {
        let kind =
            Int.random(in: 0..<5, using: &generator) == 0
            ? Int.random(in: 0..<4, using: &generator)
            : [
                "INT": 0, "REA": 1, "DOU": 1, "FLO": 1, "NUM": 1, "DEC": 1, "DAT": 2, "BOO": 0, "TEX": 2, "VAR": 2,
                "CHA": 2,
                "CLO": 2, "BLO": 3,
            ][String(type.prefix(3))] ?? 3
        switch kind {
        case 0:
            let shapes = [
                String(Int.random(in: -1000...1000, using: &generator)),
                String(Int64.random(in: .min ... .max, using: &generator)),
                "+7", " 42", "42 ", "007", "-0", "0", "1", "9223372036854775807", "9223372036854775808",
                "-9223372036854775809", "1e3", "0x1F", "", "NULL", "3.0", "3.5", "12abc",
            ]
            return shapes.randomElement(using: &generator)!
        case 1:
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator) & ~(UInt64(1) << 62))
            let shapes = [
                String(format: "%.2f", Double.random(in: -1000...1000, using: &generator)),
                String(format: "%.17g", value),
                String(format: "%.\(Int.random(in: 1...20, using: &generator))e", value), "811.15", "-0.5", "1e-5",
                "1.5E+300", "inf", ".5", "5.", "1e400", "-0.0", "  2.50  ", "1.5.2",
            ]
            return shapes.randomElement(using: &generator)!
        case 2:
            let words = [
                "apple", "café", "豆腐", "🧑‍🚀", "NULL", "", "say \"hi\"", "a,b", "a|b", "line\nbreak", "tab\tx",
                "1996-03-13",
            ]
            return (0..<Int.random(in: 1...3, using: &generator)).map { _ in words.randomElement(using: &generator)! }
                .joined(separator: " ")
        default:
            // Up to three pages' worth (overflow chains), now and then much more.
            let most = Int.random(in: 0..<40, using: &generator) == 0 ? 70_000 : 3 * min(pageSize, 4096)
            let length = Int.random(in: 0...most, using: &generator)
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 ,|\"\né")
            return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
        }
    }
}
