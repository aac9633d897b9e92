@testable import DBGenKit
import Foundation
import XCTest

/// The field reader gives the same fields, terminators, line numbers and warnings whatever
/// the size of its read buffer (fields, quotes, CRs and BOMs split across reads), and the
/// eight-bytes-at-a-time search agrees with a plain loop.
final class ImportFieldReaderTests: XCTestCase {
    private struct Field: Equatable {
        var bytes: [UInt8]?
        var terminator: Int32
        var line: Int
    }

    private func fields(of bytes: [UInt8], format: ImportFormat, chunkSize: Int) throws -> ([Field], [String]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var reader = ImportFieldReader(fileDescriptor: fd, format: format, chunkSize: chunkSize)
        defer { reader.release() }
        var arena = ImportByteArena(capacity: 16)
        defer { arena.release() }
        var result: [Field] = []
        repeat {
            arena.reset()
            let notNull = reader.readField(into: &arena)
            let bytes = notNull ? Array(UnsafeBufferPointer(start: arena.base, count: arena.count)) : nil
            result.append(Field(bytes: bytes, terminator: reader.terminator, line: reader.line))
        } while reader.terminator != ImportFieldReader.endOfFile
        XCTAssertEqual(reader.bytesRead, Int64(bytes.count))
        let events = reader.events.map { "\($0)" }
        return (result, events)
    }

    private func assertChunkIndependent(
        _ bytes: [UInt8], format: ImportFormat, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let reference = try fields(of: bytes, format: format, chunkSize: 1 << 20)
        for chunkSize in [1, 2, 3, 5, 8, 13, 64] {
            let split = try fields(of: bytes, format: format, chunkSize: chunkSize)
            XCTAssertEqual(split.0, reference.0, "chunk size \(chunkSize)", file: file, line: line)
            XCTAssertEqual(split.1, reference.1, "chunk size \(chunkSize)", file: file, line: line)
        }
    }

    func testSplitReadsGiveTheSameFields() throws {
        let samples: [String] = [
            "a,b\r\n\"c\"\"d\",\"e\nf\"\r\n\"g\"\r\n\"h\"x\",y\n",
            "\u{FEFF}\"bom\",x\n1,2",
            "\"unterminated,\n",
            "long unquoted field with many bytes in it,and another one that is longer than the chunks\n",
            "\"quoted field \"\" with \"\" doubled quotes and \r\n newlines\"\r\n",
            "\"a\"\r,b\n\"c\"\r\n",
            "",
            "\n\n,\n",
        ]
        for sample in samples {
            try assertChunkIndependent(Array(sample.utf8), format: .csv)
            try assertChunkIndependent(
                Array(sample.utf8),
                format: ImportFormat(quoting: .csv, columnSeparator: UInt8(ascii: "|"), rowSeparator: 10))
            try assertChunkIndependent(Array(sample.utf8), format: .ascii)
        }
        try assertChunkIndependent([0xEF, 0xBB, 0x2C, 0xEF, 0xBB, 0xBF], format: .csv)
        try assertChunkIndependent([0xEF, 0xBB, 0xBF], format: .csv)
        try assertChunkIndependent([0x61, 0x1F, 0x62, 0x1E, 0x1E, 0x0A, 0x1F], format: .ascii)
    }

    func testByteSearchMatchesAPlainLoop() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...8, using: &generator) &* 31 }
            let a = UInt8.random(in: 0...8, using: &generator) &* 31
            let b = UInt8.random(in: 0...8, using: &generator) &* 31
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for start in 0...count {
                    let expected = (start..<count).first { bytes[$0] == a || bytes[$0] == b } ?? count
                    XCTAssertEqual(
                        ImportByteSearch.firstIndex(of: a, or: b, in: base, from: start, to: count), expected)
                }
            }
        }
    }
}
