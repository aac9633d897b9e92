import XCTest

@testable import SyncProtocol

/// Every malformed form of a message is refused, and the error names the field that failed:
/// truncation at every byte, trailing bytes, unknown flags, tags, statuses and outcomes,
/// overlong varints, invalid UTF-8, lengths and indexes past the end, duplicates, and bodies
/// over a limit (a zlib bomb among them).
final class SyncMalformedMessageTests: XCTestCase {
    private func refusal(
        _ bytes: [UInt8], limits: SyncLimits = .standard, file: StaticString = #filePath, line: UInt = #line
    )
        -> SyncDecodingError?
    {
        do {
            _ = try SyncRequest(decoding: bytes, limits: limits)
            XCTFail("decoded a malformed request", file: file, line: line)
            return nil
        } catch let error as SyncDecodingError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    private func answerRefusal(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
        -> SyncDecodingError?
    {
        do {
            _ = try SyncAnswer(decoding: bytes)
            XCTFail("decoded a malformed answer", file: file, line: line)
            return nil
        } catch let error as SyncDecodingError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    /// A request with one batch of one row of two cells, uncompressed, and where its parts start.
    private func sample() -> [UInt8] {
        SyncRequest(
            device: SyncDeviceID(high: 1, low: 2), cursor: 300, clock: 1_700_000_000_000,
            batch: SyncBatch(
                id: 2, tables: [.init(name: "item", columns: ["name", "qty"])],
                rows: [
                    .init(
                        table: 0, key: .text("k"),
                        cells: [
                            .init(column: 1, hlc: HLC(milliseconds: 1_700_000_000_000), change: .value(.text("é"))),
                            .init(column: 2, hlc: HLC(milliseconds: 1_700_000_000_001), change: .increment(3)),
                        ])
                ])
        ).encoded(compression: .never)
    }

    func testEveryTruncationIsRefused() {
        for message in [sample(), deflated(sample())] {
            for length in 0..<message.count {
                let error = refusal(Array(message.prefix(length)))
                XCTAssertEqual(error?.kind, .malformed, "cut at \(length): \(String(describing: error))")
                XCTAssertTrue(error?.field.hasPrefix("request") ?? false, "\(String(describing: error))")
            }
        }
        var random = RandomMessages(seed: 99)
        for _ in 0..<20 {
            let answer = random.answer().encoded(compression: .never)
            for length in 0..<answer.count {
                XCTAssertEqual(answerRefusal(Array(answer.prefix(length)))?.kind, .malformed, "answer cut at \(length)")
            }
        }
    }

    func testTrailingBytesAreRefused() {
        XCTAssertEqual(refusal(sample() + [0])?.description, "request: 1 trailing bytes after the message")
        let answer = SyncAnswer(clock: 5).encoded(compression: .never)
        XCTAssertEqual(answerRefusal(answer + [1, 2])?.description, "answer: 2 trailing bytes after the message")
        let packed = SyncAnswer(clock: 5).encoded(compression: .always)
        XCTAssertEqual(answerRefusal(packed + [7])?.field, "answer.zlib")
    }

    func testUnknownFlagsVersionsAndTagsAreRefused() {
        var message = sample()
        message[0] = 0x02
        XCTAssertEqual(refusal(message)?.description, "request.flags: unknown flags 0x02")
        message = sample()
        message[1] = 2
        XCTAssertEqual(refusal(message)?.field, "request.version")
        // The row's key tag (after flags, version, device, cursor 2, clock 6, limit, batch,
        // the table list, base_ms 6, the row count and the table index).
        message = sample()
        let keyAt = 2 + 16 + 2 + 6 + 1 + 1 + (1 + 5 + 1 + 5 + 4) + 6 + 1 + 1
        XCTAssertEqual(message[keyAt], 0x03)
        for tag: UInt8 in [0x07, 0x3F, 0x80, 0xFF] {
            message[keyAt] = tag
            XCTAssertEqual(refusal(message)?.field, "request.batch.rows[0].key")
        }
        message[keyAt] = 0x00
        XCTAssertEqual(refusal(message)?.description, "request.batch.rows[0].key: NULL is not a key")
        let answer = SyncAnswer(clock: 1).encoded(compression: .never)
        var badStatus = answer
        badStatus[4] = 3
        XCTAssertEqual(answerRefusal(badStatus)?.field, "answer.status")
        var badMore = answer
        badMore[badMore.count - 1] = 2
        XCTAssertEqual(answerRefusal(badMore)?.field, "answer.more")
        let result = SyncAnswer(
            clock: 1, batch: 1, status: .applied,
            results: [.init(row: 0, column: 0, outcome: .superseded, server: .integer(1))])
        var badOutcome = result.encoded(compression: .never)
        badOutcome[8] = 6
        XCTAssertEqual(answerRefusal(badOutcome)?.field, "answer.results[0].outcome")
    }

    func testOverlongAndOversizedVarintsAreRefused() {
        // cursor (300 = AC 02) written with a needless zero byte: AC 82 00.
        var message = sample()
        message.replaceSubrange(18..<20, with: [0xAC, 0x82, 0x00])
        XCTAssertEqual(refusal(message)?.description, "request.cursor: overlong varint")
        message = sample()
        message.replaceSubrange(18..<20, with: [UInt8](repeating: 0xFF, count: 9) + [0x02])
        XCTAssertEqual(refusal(message)?.description, "request.cursor: varint longer than 64 bits")
        message = sample()
        message.replaceSubrange(18..<20, with: [UInt8](repeating: 0xFF, count: 9) + [0x01])
        XCTAssertEqual(try SyncRequest(decoding: message).cursor, UInt64.max, "ten bytes up to 2^64 - 1 are fine")
        message = sample()
        message.replaceSubrange(18..<20, with: [UInt8](repeating: 0x80, count: 10) + [0x00])
        XCTAssertNotNil(refusal(message))
    }

    func testInvalidUTF8IsRefused() {
        let sample = sample()
        // The table name "item" starts after flags, version, device, cursor, clock, limit, batch,
        // the table count and the name's length.
        let nameAt = 2 + 16 + 2 + 6 + 1 + 1 + 1 + 1
        XCTAssertEqual(Array(sample[nameAt..<nameAt + 4]), Array("item".utf8))
        for bad: [UInt8] in [
            [0xC0, 0x80, 0x41, 0x41], [0xED, 0xA0, 0x80, 0x41], [0xF4, 0x90, 0x80, 0x80], [0x41, 0x41, 0x41, 0xE2],
            [0xFF, 0x41, 0x41, 0x41],
        ] {
            var message = sample
            message.replaceSubrange(nameAt..<nameAt + 4, with: bad)
            XCTAssertEqual(refusal(message)?.description, "request.batch.tables[0].name: invalid UTF-8")
        }
    }

    func testLengthsAndIndexesPastTheEndAreRefused() {
        let nameLengthAt = 2 + 16 + 2 + 6 + 1 + 1 + 1
        var message = sample()
        message[nameLengthAt] = 0x7F
        XCTAssertEqual(refusal(message)?.field, "request.batch.tables[0].name")
        message = sample()
        message[nameLengthAt - 1] = 0x7F // 127 tables in a message far shorter
        XCTAssertTrue(refusal(message)?.problem.contains("bytes are left") ?? false)
        // Row 0's table index (1: past the one table), then its column index.
        let tableAt = 2 + 16 + 2 + 6 + 1 + 1 + (1 + 5 + 1 + 5 + 4) + 6 + 1
        message = sample()
        message[tableAt] = 1
        XCTAssertEqual(refusal(message)?.field, "request.batch.rows[0].table")
        let firstCellAt = tableAt + 1 + 3 + 1
        message = sample()
        XCTAssertEqual(message[firstCellAt], 2) // column 1, a value
        message[firstCellAt] = 6 // column 3 of a table of two
        XCTAssertEqual(refusal(message)?.field, "request.batch.rows[0].cells[0].column")
        message[firstCellAt] = 1 // the row cell as an increment
        XCTAssertEqual(refusal(message)?.problem, "the row cell cannot be an increment")
        message[firstCellAt] = 4 // column 2 (a value), then column 2 again
        XCTAssertEqual(refusal(message)?.problem, "column 2 changed twice in one row")
    }

    func testDuplicatesAreRefused() {
        let cell = SyncCellChange(column: 0, hlc: HLC(milliseconds: 1), change: .row(exists: true))
        let twice = SyncRequest(
            device: SyncDeviceID(high: 0, low: 0), cursor: 0, clock: 0,
            batch: SyncBatch(
                id: 1, tables: [.init(name: "t", columns: [])],
                rows: [
                    .init(table: 0, key: .integer(7), cells: [cell]), .init(table: 0, key: .integer(7), cells: [cell]),
                ]))
        XCTAssertEqual(refusal(twice.encoded())?.field, "request.batch.rows[1].key")
        let tables = SyncRequest(
            device: SyncDeviceID(high: 0, low: 0), cursor: 0, clock: 0,
            batch: SyncBatch(id: 1, tables: [.init(name: "t", columns: ["a", "A"])], rows: []))
        XCTAssertEqual(
            refusal(tables.encoded())?.description, "request.batch.tables[0].columns[1]: column 'A' is listed twice")
    }

    func testBodiesOverTheLimitsAreRefused() {
        let limits = SyncLimits(bodyBytes: 100, inflatedBytes: 1000, batchRows: 2)
        let big = SyncRequest(
            device: SyncDeviceID(high: 0, low: 0), cursor: 0, clock: 0,
            batch: SyncBatch(
                id: 1, tables: [.init(name: "t", columns: [])],
                rows: (0..<3).map {
                    .init(
                        table: 0, key: .integer(Int64($0)),
                        cells: [.init(column: 0, hlc: HLC(milliseconds: 1), change: .row(exists: true))])
                }))
        let error = refusal(big.encoded(), limits: limits)
        XCTAssertEqual(error?.kind, .overLimit)
        XCTAssertEqual(error?.field, "request.batch.rows")
        XCTAssertEqual(refusal([UInt8](repeating: 0, count: 101), limits: limits)?.kind, .overLimit)
        // A bomb: a few hundred bytes of zlib that inflate to megabytes.
        var body: [UInt8] = [1] + [UInt8](repeating: 0, count: 16) + [0, 0, 0, 1, 1, 1, 0x74, 0]
        body += [UInt8](repeating: 0, count: 2 << 20)
        let bomb = deflated([0] + body)
        XCTAssertLessThan(bomb.count, 4096)
        let bombError = refusal(bomb, limits: SyncLimits(bodyBytes: 4096, inflatedBytes: 1 << 20))
        XCTAssertEqual(bombError?.kind, .overLimit)
        XCTAssertEqual(bombError?.field, "request.zlib")
        // A corrupt zlib stream, and one cut short.
        var corrupt = deflated(sample())
        corrupt[corrupt.count / 2] ^= 0xFF
        XCTAssertEqual(refusal(corrupt)?.field, "request.zlib")
    }
}

/// `message` (flags byte first) with its rest deflated by the system's zlib and the zlib flag
/// set: bytes that need not be a valid message.
func deflated(_ message: [UInt8]) -> [UInt8] {
    [1] + (WireCompression.deflate(message.dropFirst()) ?? [])
}
