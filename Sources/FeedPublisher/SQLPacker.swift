import FeedClient
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

/// Packs a `dbgen diff` patch with ``SQLPack`` (the format is described there): the key at the
/// end of each `UPDATE` and `DELETE` line as its difference from the one before, and the words
/// that save the most bytes from a dictionary. The same patch always gives the same bytes.
enum SQLPacker {
    /// The shortest word worth a dictionary entry (its code takes two bytes).
    static let shortestWord = 3
    /// A word enters the dictionary when it saves at least this many bytes before compression
    /// (fewer is noise to the compressor, which models a rare word well enough).
    static let leastSaving = 200
    /// The largest patch packed (it is packed in memory); a larger one is published unpacked.
    static let largestPatch = 256 << 20

    /// Packs the patch at `source` into `destination` when that is possible and makes it
    /// shorter, and the packed bytes unpack to exactly the patch; returns whether it did
    /// (`destination` is then written, else untouched).
    static func pack(fileAt source: String, to destination: String) throws -> Bool {
        guard try FileManager.default.sizeOfItem(atPath: source) <= largestPatch else { return false }
        let sql = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let packed = pack(sql), unpacks(packed, to: sql) else { return false }
        try Data(packed).write(to: URL(fileURLWithPath: destination))
        return true
    }

    /// The packed form of `sql`, or nil when it holds a byte SQLPack reserves (not UTF-8 text)
    /// or packing would not make it shorter.
    static func pack(_ sql: [UInt8]) -> [UInt8]? {
        guard let packed = encode(sql), packed.count <= sql.count else { return nil }
        return packed
    }

    /// `sql` in SQLPack, or nil when it holds a byte SQLPack reserves (not UTF-8 text).
    static func encode(_ sql: [UInt8]) -> [UInt8]? {
        guard !sql.contains(where: { $0 >= SQLPack.firstReservedByte }) else { return nil }
        let body = differencedKeys(sql)
        let dictionary = words(of: body)
        let codes = Dictionary(uniqueKeysWithValues: dictionary.enumerated().map { ($1, UInt8($0)) })
        var packed = SQLPack.signature
        packed.reserveCapacity(sql.count)
        packed.append(UInt8(dictionary.count))
        for word in dictionary {
            packed.append(UInt8(word.count))
            packed += word
        }
        forEachRun(of: body) { run, isWord in
            if isWord, let code = codes[Array(run)] {
                packed += [SQLPack.wordCode, code]
            } else {
                packed += run
            }
        }
        return packed
    }

    /// Whether `packed` unpacks to exactly `sql` (what the device will do).
    static func unpacks(_ packed: [UInt8], to sql: [UInt8]) -> Bool {
        let unpacker = SQLPack.Unpacker(limit: Int64(sql.count))
        var output: [UInt8] = []
        output.reserveCapacity(sql.count)
        do {
            try packed.withUnsafeBytes { try unpacker.append($0) { output += $0 } }
            try unpacker.finish()
        } catch {
            return false
        }
        return output == sql
    }

    /// `sql` with the key that ends each `UPDATE` or `DELETE` line (`… WHERE pk=N;`) written as
    /// its difference from the previous such key, after ``SQLPack/keyCode``.
    static func differencedKeys(_ sql: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(sql.count)
        var previous: Int64 = 0
        var lineStart = 0
        while lineStart < sql.count {
            let lineEnd = sql[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? sql.count
            let line = sql[lineStart..<lineEnd]
            if let (digitsStart, key) = trailingKey(of: line),
                case let (difference, overflow) = key.subtractingReportingOverflow(previous), !overflow
            {
                output += sql[lineStart..<digitsStart]
                output.append(SQLPack.keyCode)
                output += Array(String(difference).utf8)
                output.append(UInt8(ascii: ";"))
                previous = key
            } else {
                output += line
            }
            if lineEnd < sql.count { output.append(UInt8(ascii: "\n")) }
            lineStart = lineEnd + 1
        }
        return output
    }

    /// The key of a line `UPDATE …=N;` or `DELETE …=N;` (N a decimal integer as SQLite and
    /// `dbgen diff` write it: no leading zeros, `-` for a negative one), and where its digits
    /// (or sign) start.
    private static func trailingKey(of line: ArraySlice<UInt8>) -> (Int, Int64)? {
        guard line.starts(with: Array("UPDATE ".utf8)) || line.starts(with: Array("DELETE ".utf8)),
            line.last == UInt8(ascii: ";")
        else { return nil }
        let end = line.endIndex - 1
        var start = end
        while start > line.startIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[start - 1]) {
            start -= 1
        }
        guard start < end, end - start <= 19 else { return nil }
        if line[start] == UInt8(ascii: "0"), end - start > 1 { return nil }
        var numberStart = start
        if numberStart > line.startIndex, line[numberStart - 1] == UInt8(ascii: "-") { numberStart -= 1 }
        guard numberStart > line.startIndex, line[numberStart - 1] == UInt8(ascii: "="),
            let key = Int64(String(decoding: line[numberStart..<end], as: UTF8.self)),
            String(key) == String(decoding: line[numberStart..<end], as: UTF8.self)
        else { return nil }
        return (numberStart, key)
    }

    /// The words worth a dictionary entry, those saving the most first (ties by their bytes).
    static func words(of body: [UInt8]) -> [[UInt8]] {
        var counts: [[UInt8]: Int] = [:]
        forEachRun(of: body) { run, isWord in
            if isWord, run.count >= shortestWord, run.count <= 255 { counts[Array(run), default: 0] += 1 }
        }
        let ranked = counts.map { word, count in (word: word, saving: count * (word.count - 2) - (word.count + 1)) }
            .filter { $0.saving >= leastSaving }
            .sorted { $0.saving != $1.saving ? $0.saving > $1.saving : $0.word.lexicographicallyPrecedes($1.word) }
        return ranked.prefix(SQLPack.maximumWords).map(\.word)
    }

    /// Splits `bytes` into maximal runs of word bytes (letters, and the bytes of non-ASCII
    /// characters) and the runs between them.
    private static func forEachRun(of bytes: [UInt8], _ body: (ArraySlice<UInt8>, Bool) -> Void) {
        var start = 0
        while start < bytes.count {
            let isWord = isWordByte(bytes[start])
            var end = start + 1
            while end < bytes.count, isWordByte(bytes[end]) == isWord { end += 1 }
            body(bytes[start..<end], isWord)
            start = end
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || (0x80..<SQLPack.firstReservedByte).contains(byte)
    }
}
