@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Property: for random tables and random CSV content, writing the CSV and importing it with
/// `.import` gives back exactly the values written, row by row, column by column.
///
/// The content is chosen to hit the reader's hard cases: separators, quotes, `\n` and `\r\n`
/// inside quoted fields, CRLF row ends, a UTF-8 BOM, unicode of every width, empty fields,
/// leading and trailing spaces, fields quoted when they need not be. The writer follows the
/// rules the sqlite3 shell's reader implements (RFC 4180 quoting, doubled quotes). Tables are
/// either created beforehand with TEXT columns or created by the import from a header row with
/// random unicode names. Seeded: a failure prints the seed; `PROPERTY_SEED=N` replays it.
final class PropertyImportRoundTripTests: XCTestCase {
    struct Table {
        var columnSeparator: UInt8
        var crlf: Bool
        var bom: Bool
        var header: [String]?
        var rows: [[String]]
    }

    /// Pieces values are made of: plain text, every separator in play, quotes, line breaks,
    /// spaces and unicode of 1 to 4 UTF-8 bytes (including combining marks and emoji sequences).
    static let pieces: [String] = [
        "a", "Zz", "42", "-3.5e7", "0x1F", "NULL", " ", "  ", "\t", ",", "|", ";", "\"", "\"\"",
        "\n", "\r\n", "\r", "é", "e\u{301}", "ß", "Ж", "中文", "👍🏽", "🇫🇷", "\u{FEFF}", "\u{200B}",
        "'", "\\", "\\n", "<x>", "&amp;", "日本語テキスト",
    ]

    static func randomValue(_ rng: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return ""
        case 1: return String(repeating: "x", count: Int.random(in: 1...300, using: &rng))
        default:
            return (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        }
    }

    static func randomTable(_ rng: inout SeededGenerator) -> Table {
        let separator: UInt8 = [UInt8(ascii: ","), UInt8(ascii: "|"), UInt8(ascii: ";"), UInt8(ascii: "\t")]
            .randomElement(using: &rng)!
        let columns = Int.random(in: 1...6, using: &rng)
        var header: [String]?
        if Bool.random(using: &rng) {
            // Distinct, non-empty names (case-insensitively, as SQLite compares them).
            var names: [String] = []
            while names.count < columns {
                let name =
                    ["id", "名前", "größe", "col", "naïve", "x y", "a,b", "q\"uote", "Ω", "🙂"]
                    .randomElement(using: &rng)! + String(names.count)
                if !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
            }
            header = names
        }
        let rows = (0..<Int.random(in: 0...25, using: &rng)).map { _ in
            (0..<columns).map { _ in randomValue(&rng) }
        }
        return Table(
            columnSeparator: separator, crlf: Bool.random(using: &rng), bom: Bool.random(using: &rng),
            header: header, rows: rows)
    }

    /// The CSV bytes for `table`, quoting a field when the reader needs it, and some others.
    static func csv(_ table: Table, _ rng: inout SeededGenerator) -> [UInt8] {
        let separator = Character(UnicodeScalar(table.columnSeparator))
        func field(_ value: String) -> String {
            let needsQuotes =
                value.isEmpty
                ? false : value.contains { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            // The reader strips a BOM only before the first field; quoting protects one there too.
            let forced = value.hasPrefix("\u{FEFF}")
            if needsQuotes || forced || Int.random(in: 0..<5, using: &rng) == 0 {
                return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            return value
        }
        var text = table.bom ? "\u{FEFF}" : ""
        let lineEnd = table.crlf ? "\r\n" : "\n"
        for row in (table.header.map { [$0] } ?? []) + table.rows {
            text += row.map(field).joined(separator: String(separator)) + lineEnd
        }
        return Array(text.utf8)
    }

    func testImportGivesBackExactlyTheValuesWritten() throws {
        let seed =
            ProcessInfo.processInfo.environment["PROPERTY_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 0...UInt64.max)
        var rng = SeededGenerator(seed: seed)
        let directory = try TemporaryDirectory("dbgen-property", removedAfter: self).url

        let iterations = 150
        for iteration in 0..<iterations {
            let table = Self.randomTable(&rng)
            let bytes = Self.csv(table, &rng)
            let context =
                "seed \(seed) (PROPERTY_SEED=\(seed) replays it), table \(iteration), separator \(UnicodeScalar(table.columnSeparator).escaped(asASCII: true)), crlf \(table.crlf), bom \(table.bom), header \(table.header != nil)"
            let file = directory.appendingPathComponent("t\(iteration).csv")
            try Data(bytes).write(to: file)

            let connection = try Connection(uri: ":memory:")
            let columns = table.header?.count ?? table.rows.first?.count ?? 1
            if table.header == nil {
                try connection.execute(
                    "CREATE TABLE t(" + (0..<columns).map { "c\($0) TEXT" }.joined(separator: ", ") + ")")
            } else if table.rows.isEmpty {
                continue // a header alone creates the table; nothing to compare
            }
            var diagnostics: [Diagnostic] = []
            let request = ImportRequest(
                file: file, displayPath: file.lastPathComponent, table: "t",
                format: ImportFormat(
                    quoting: .csv, columnSeparator: table.columnSeparator,
                    rowSeparator: UInt8(ascii: "\n")))
            let result: ImportResult
            do {
                result = try CSVImporter.run(request, into: connection, diagnostics: { diagnostics.append($0) })
            } catch {
                XCTFail(
                    "\(context): import failed: \(error)\nCSV: \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                )
                return
            }
            XCTAssertEqual(diagnostics, [], context)
            XCTAssertEqual(result.rowsInserted, table.rows.count, context)

            if let header = table.header {
                let names = try connection.query("SELECT name FROM pragma_table_info('t') ORDER BY cid").map {
                    $0[0].shellText
                }
                XCTAssertEqual(names, header, "\(context): column names")
            }
            let stored = try connection.query("SELECT * FROM t ORDER BY rowid").map(\.values)
            let expected = table.rows.map { $0.map(DatabaseValue.text) }
            if stored != expected {
                let firstBad = zip(stored, expected).enumerated().first { $0.element.0 != $0.element.1 }
                XCTFail(
                    """
                    \(context): values differ (\(stored.count) rows stored, \(expected.count) written)
                    first differing row \(firstBad?.offset ?? -1): stored \(String(describing: firstBad?.element.0)), written \(String(describing: firstBad?.element.1))
                    CSV: \(String(decoding: bytes, as: UTF8.self).debugDescription)
                    """)
                return
            }
        }
    }
}
