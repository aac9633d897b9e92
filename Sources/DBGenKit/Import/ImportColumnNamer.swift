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
import EssentialsSupport
import SQLiteCore

/// Builds the `CREATE TABLE` statement the sqlite3 3.40 shell runs when `.import` names a
/// missing table: one TEXT column per header field, an empty name becoming `?`, and names that
/// repeat (ignoring ASCII case) suffixed with `_` and their 1-based position, after the
/// fewest leading zeros that make the names unique (`a_1`, `a_2`; `a_01`, `A_02` beside `a_2`).
struct ImportColumnNamer {
    /// The header fields, as the shell saw them (C strings: cut at the first NUL).
    var headerNames: [[UInt8]] = []

    /// A column renamed because of a duplicate: the shell lists them on stderr.
    struct Rename: Equatable {
        var from: String
        var to: String
    }

    mutating func add(_ bytes: [UInt8]) {
        headerNames.append(Array(bytes.prefix { $0 != 0 }))
    }

    /// The final column names, and the renames made.
    ///
    /// As in 3.40, the number of leading zeros is chosen by comparing names whose positions
    /// are padded to the digit count of the column count (`a_01` among 12 columns), but the
    /// final names are not padded (`a_1`): the shell can so make a name that collides, and
    /// its `CREATE TABLE` then fails ("duplicate column name"), as it does here.
    func columnNames() -> (names: [[UInt8]], renames: [Rename]) {
        let names = headerNames.map { $0.isEmpty ? [UInt8(ascii: "?")] : $0 }
        let folded = names.map(Self.asciiFolded)
        var counts: [[UInt8]: Int] = [:]
        for name in folded { counts[name, default: 0] += 1 }
        let repeated = folded.map { counts[$0, default: 0] > 1 }
        let digits = String(names.count).count
        func candidates(leadingZeros: Int, width: Int) -> [[UInt8]] {
            names.indices.map { index in
                guard repeated[index] else { return names[index] }
                let position = String(index + 1)
                let padded = String(repeating: "0", count: max(0, width - position.count)) + position
                return names[index] + Array(("_" + String(repeating: "0", count: leadingZeros) + padded).utf8)
            }
        }
        var zeros = 0
        while true {
            let probe = candidates(leadingZeros: zeros, width: digits)
            if Set(probe.map(Self.asciiFolded)).count == probe.count { break }
            zeros += 1
        }
        let result = candidates(leadingZeros: zeros, width: 1)
        var renames: [Rename] = []
        for index in names.indices where repeated[index] {
            renames.append(
                Rename(
                    from: String(decoding: names[index], as: UTF8.self),
                    to: String(decoding: result[index], as: UTF8.self)))
        }
        return (result, renames)
    }

    /// `CREATE TABLE <table>(\n"a" TEXT, "b" TEXT, "c" TEXT, "d" TEXT,\n "e" TEXT)\n`, laid out
    /// exactly as the shell lays it out (four columns a line), or nil for an empty header.
    func createStatement(qualifiedTable: String) -> (sql: [UInt8], renames: [Rename])? {
        guard !headerNames.isEmpty else { return nil }
        let (names, renames) = columnNames()
        var sql = Array("CREATE TABLE \(qualifiedTable)(\n".utf8)
        for (index, name) in names.enumerated() {
            if index > 0 {
                sql.append(UInt8(ascii: ","))
                sql += index % 4 == 0 ? Array("\n ".utf8) : [UInt8(ascii: " ")]
            }
            sql += Self.quotedIdentifier(name)
            sql += Array(" TEXT".utf8)
        }
        sql += Array(")\n".utf8)
        return (sql, renames)
    }

    /// The shell's rename report: `"a" to "a_1",\n"a" to "a_2"`.
    static func renameReport(_ renames: [Rename]) -> String {
        renames.map { "\"\(escapeQuotes($0.from))\" to \"\(escapeQuotes($0.to))\"" }.joined(separator: ",\n")
    }

    static func quotedIdentifier(_ name: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in name {
            out.append(byte)
            if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    private static func escapeQuotes(_ text: String) -> String {
        SQLIdentifier.doubling("\"", in: text)
    }

    /// SQLite's NOCASE: ASCII letters folded, every other byte as is.
    private static func asciiFolded(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }
}
