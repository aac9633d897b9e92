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
import SQLiteCore
import EssentialsSupport

/// Writes column values as SQL literals that SQLite reads back as the identical value:
/// same storage class, same bits.
///
/// - INTEGER: decimal.
/// - REAL: the shortest decimal that round-trips (`256.09000000000003`, `-0.0`, `1e-05`),
///   checked against this SQLite's own parser; if SQLite were to read it differently, an
///   exact product of powers of two instead. ±Infinity is `1e999` / `-1e999`.
/// - TEXT: `'…'` with quotes doubled; text with NUL bytes or invalid UTF-8 as
///   `CAST(x'…' AS TEXT)`, which keeps its bytes.
/// - BLOB: `x'…'`.
final class SQLLiteralWriter {
    private let verifier: Connection
    private let parse: Statement
    private static let hexDigits = Array("0123456789abcdef".utf8)

    init() throws {
        verifier = try Connection(uri: "file::memory:?mode=memory")
        parse = try verifier.prepare("SELECT CAST(?1 AS REAL)")
    }

    /// Appends column `index` of `statement`'s current row to `out`.
    func append(_ statement: Statement, _ index: Int32, to out: inout [UInt8]) throws {
        switch statement.storageClass(index) {
        case .null:
            out.append(contentsOf: "NULL".utf8)
        case .integer:
            out.append(contentsOf: String(statement.int64(index)).utf8)
        case .real:
            try appendReal(statement.double(index), to: &out)
        case .text:
            appendText(statement.bytes(index, of: .text), to: &out)
        case .blob:
            appendHex(statement.bytes(index, of: .blob), prefix: "x'", suffix: "'", to: &out)
        }
    }

    /// A REAL literal SQLite parses back to exactly `value`.
    func appendReal(_ value: Double, to out: inout [UInt8]) throws {
        if value.isNaN { out.append(contentsOf: "NULL".utf8); return }
        if value.isInfinite { out.append(contentsOf: (value < 0 ? "-1e999" : "1e999").utf8); return }
        let shortest = value.description
        if try parses(shortest, to: value) { out.append(contentsOf: shortest.utf8); return }
        let long = PrintfFormat.string("%.17e", value)
        if try parses(long, to: value) { out.append(contentsOf: long.utf8); return }
        out.append(contentsOf: Self.powerOfTwoProduct(value).utf8)
    }

    private func parses(_ literal: String, to value: Double) throws -> Bool {
        parse.reset()
        try parse.bind(.text(literal), at: 1)
        guard try parse.step() else { return false }
        let parsed = parse.double(0)
        parse.reset()
        return parsed.bitPattern == value.bitPattern
    }

    /// `value` as `(m*1.0*F*F…)` with m its integer significand and each F an exact power of
    /// two (2^±62 at most, written as integer literals): every step is exact.
    static func powerOfTwoProduct(_ value: Double) -> String {
        var exponent = Int(value.exponent) - 52
        var significand = Int64(value.significandBitPattern | (value.isNormal ? (1 << 52) : 0))
        if !value.isNormal { exponent = -1074 }
        while significand != 0 && significand & 1 == 0 { significand >>= 1; exponent += 1 }
        var text = "(" + (value.sign == .minus ? "-" : "") + String(significand) + "*1.0"
        while exponent != 0 {
            let step = max(-62, min(62, exponent))
            let power = String(Int64(1) << Int64(abs(step)))
            text += step > 0 ? "*" + power : "/" + power
            exponent -= step
        }
        return text + ")"
    }

    private func appendText(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        guard Self.isPlainText(bytes) else {
            appendHex(bytes, prefix: "CAST(x'", suffix: "' AS TEXT)", to: &out)
            return
        }
        out.append(UInt8(ascii: "'"))
        for byte in bytes {
            out.append(byte)
            if byte == UInt8(ascii: "'") { out.append(byte) }
        }
        out.append(UInt8(ascii: "'"))
    }

    private func appendHex(_ bytes: UnsafeRawBufferPointer, prefix: String, suffix: String, to out: inout [UInt8]) {
        out.append(contentsOf: prefix.utf8)
        for byte in bytes {
            out.append(Self.hexDigits[Int(byte >> 4)])
            out.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        out.append(contentsOf: suffix.utf8)
    }

    /// Valid UTF-8 without NUL bytes: safe inside a quoted SQL string.
    static func isPlainText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0 { return false }
            if byte < 0x80 { index += 1; continue }
            let length: Int
            if byte & 0xE0 == 0xC0, byte >= 0xC2 {
                length = 2
            } else if byte & 0xF0 == 0xE0 {
                length = 3
            } else if byte & 0xF8 == 0xF0, byte <= 0xF4 {
                length = 4
            } else {
                return false
            }
            guard index + length <= count else { return false }
            for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            if length == 3 {
                let second = bytes[index + 1]
                if byte == 0xE0 && second < 0xA0 { return false } // overlong
                if byte == 0xED && second >= 0xA0 { return false } // surrogate
            } else if length == 4 {
                let second = bytes[index + 1]
                if byte == 0xF0 && second < 0x90 { return false }
                if byte == 0xF4 && second >= 0x90 { return false }
            }
            index += length
        }
        return true
    }
}
