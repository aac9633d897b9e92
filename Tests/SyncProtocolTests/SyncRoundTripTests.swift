import SyncProtocol
import XCTest

/// What SyncProtocol encodes it decodes to the same message, compressed or not, for seeded
/// random messages of every form; and the encodings docs/Sync.md fixes byte for byte.
final class SyncRoundTripTests: XCTestCase {
    func testSeededRandomRequestsRoundTrip() throws {
        for seed in 0..<400 as Range<UInt64> {
            var random = RandomMessages(seed: seed)
            let request = random.request()
            for compression in [SyncCompression.never, .whenSmaller, .always] {
                let bytes = request.encoded(compression: compression)
                let decoded = try SyncRequest(decoding: bytes)
                XCTAssertEqual(decoded, request, "seed \(seed), \(compression)")
            }
        }
    }

    func testSeededRandomAnswersRoundTrip() throws {
        for seed in 0..<400 as Range<UInt64> {
            var random = RandomMessages(seed: seed)
            let answer = random.answer()
            for compression in [SyncCompression.never, .whenSmaller, .always] {
                let decoded = try SyncAnswer(decoding: answer.encoded(compression: compression))
                XCTAssertEqual(decoded, answer, "seed \(seed), \(compression)")
            }
        }
    }

    func testCompressionIsUsedOnlyWhenItMakesTheMessageSmaller() throws {
        let device = SyncDeviceID(high: 1, low: 2)
        let small = SyncRequest(device: device, cursor: 5, clock: 1_700_000_000_000)
        XCTAssertEqual(small.encoded().first, 0, "a short request is never deflated")
        let rows = (0..<200).map { i in
            SyncRowChange(
                table: 0, key: .integer(Int64(i) + 1000),
                cells: [
                    SyncCellChange(
                        column: 1, hlc: HLC(milliseconds: 1_700_000_000_000), change: .value(.text("same text")))
                ])
        }
        let big = SyncRequest(
            device: device, cursor: 0, clock: 1,
            batch: SyncBatch(id: 1, tables: [.init(name: "t", columns: ["c"])], rows: rows))
        let plain = big.encoded(compression: .never)
        let sent = big.encoded()
        XCTAssertEqual(sent.first, 1, "a repetitive batch is deflated")
        XCTAssertLessThan(sent.count, plain.count)
        XCTAssertEqual(try SyncRequest(decoding: sent), big)
        // Random bytes do not shrink: sent as they are.
        var random = RandomMessages(seed: 7)
        let noisy = SyncAnswer(
            clock: 1, tables: [.init(name: "t", columns: ["b"])],
            rows: [
                SyncPulledRow(
                    table: 0, key: .integer(1),
                    cells: [
                        SyncPulledCell(
                            column: 1, content: .value(.blob((0..<300).map { _ in UInt8(random.int(0...255)) })))
                    ])
            ])
        XCTAssertEqual(noisy.encoded().first, 0)
    }

    /// The value tags of docs/Sync.md, byte for byte.
    func testValueEncodingsAreTheDocumentedBytes() throws {
        func valueBytes(_ value: SyncValue) -> [UInt8] {
            // The answer's only result carries the value: flags, version, clock 0, batch 1,
            // status 1, one result (row 0, column 1, outcome 1) and then the value.
            let answer = SyncAnswer(
                clock: 0, batch: 1, status: .applied,
                results: [SyncResult(row: 0, column: 1, outcome: .superseded, server: value)])
            let bytes = answer.encoded(compression: .never)
            let prefix: [UInt8] = [0, 1, 0, 1, 1, 1, 0, 1, 1]
            XCTAssertEqual(Array(bytes.prefix(prefix.count)), prefix)
            // Then: no tables, no rows, cursor 0, hlc 0, more 0.
            XCTAssertEqual(Array(bytes.suffix(5)), [0, 0, 0, 0, 0])
            return Array(bytes.dropFirst(prefix.count).dropLast(5))
        }
        XCTAssertEqual(valueBytes(.null), [0x00])
        XCTAssertEqual(valueBytes(.integer(0)), [0x40])
        XCTAssertEqual(valueBytes(.integer(63)), [0x7F])
        XCTAssertEqual(valueBytes(.integer(64)), [0x01, 0x80, 0x01])
        XCTAssertEqual(valueBytes(.integer(-1)), [0x01, 0x01])
        XCTAssertEqual(valueBytes(.integer(Int64.min)), [0x01] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        XCTAssertEqual(valueBytes(.real(1.0)), [0x02, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        XCTAssertEqual(valueBytes(.text("hé")), [0x03, 3, 0x68, 0xC3, 0xA9])
        XCTAssertEqual(valueBytes(.blob([9, 8])), [0x04, 2, 9, 8])
        let uuid: [UInt8] = [
            0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
        ]
        XCTAssertEqual(valueBytes(.text("12345678-9abc-def0-0123-456789abcdef")), [0x05] + uuid)
        XCTAssertEqual(valueBytes(.text("12345678-9ABC-DEF0-0123-456789ABCDEF")), [0x06] + uuid)
        // Mixed case, or not canonical: plain text, so the text comes back exactly as it was.
        XCTAssertEqual(valueBytes(.text("12345678-9abc-DEF0-0123-456789abcdef")).first, 0x03)
        XCTAssertEqual(valueBytes(.text("{12345678-9abc-def0-0123-456789abcde}")).first, 0x03)
        XCTAssertEqual(valueBytes(.text("123456789abc-def0-0123-456789abcdef0")).first, 0x03)
    }

    func testRealsAreKeptBitForBit() throws {
        let patterns: [UInt64] = [0, 1 << 63, 0x7FF8_0000_0000_0000, 0x7FF8_0000_0000_0001, 0xFFF0_0000_0000_0000, 1]
        for bits in patterns {
            let answer = SyncAnswer(
                clock: 0, tables: [.init(name: "t", columns: ["r"])],
                rows: [
                    SyncPulledRow(
                        table: 0, key: .integer(1),
                        cells: [.init(column: 1, content: .value(.real(Double(bitPattern: bits))))])
                ])
            let decoded = try SyncAnswer(decoding: answer.encoded())
            guard case .value(.real(let real)) = decoded.rows[0].cells[0].content else { return XCTFail("not a real") }
            XCTAssertEqual(real.bitPattern, bits)
        }
        XCTAssertNotEqual(SyncValue.real(0.0), SyncValue.real(-0.0))
        XCTAssertEqual(SyncValue.real(.nan), SyncValue.real(.nan))
    }

    /// HLC milliseconds travel as differences from the previous cell's, across rows.
    func testTheBatchCarriesMillisecondsAsDifferences() throws {
        let device = SyncDeviceID(high: 0, low: 0)
        let cells = [
            SyncCellChange(column: 0, hlc: HLC(milliseconds: 1000, logical: 2), change: .row(exists: true)),
            SyncCellChange(column: 1, hlc: HLC(milliseconds: 1003, logical: 0), change: .increment(-2)),
        ]
        let request = SyncRequest(
            device: device, cursor: 0, clock: 0,
            batch: SyncBatch(
                id: 3, tables: [.init(name: "t", columns: ["n"])],
                rows: [.init(table: 0, key: .integer(5), cells: cells)]))
        let bytes = request.encoded(compression: .never)
        let expected: [UInt8] =
            [0, 1] + [UInt8](repeating: 0, count: 16) + [0, 0, 0, 3] // cursor, clock, limit, batch 3
            + [1, 1, 0x74, 1, 1, 0x6E] // one table "t" with column "n"
            + [0xE8, 0x07] // base_ms 1000
            + [1, 0, 0x45, 2] // one row: table 0, key 5, two cells
            + [0, 0, 2, 1] // row cell: column 0, +0 ms, logical 2, exists
            + [3, 6, 0, 3] // column 1 increment: +3 ms (zigzag 6), logical 0, delta -2 (zigzag 3)
        XCTAssertEqual(bytes, expected)
    }

    func testTheClockStampsAfterWhatItHasSeen() {
        let seen = HLC(milliseconds: 5000, logical: 7)
        XCTAssertEqual(HLC.stamp(nowMilliseconds: 4000, after: seen), HLC(milliseconds: 5000, logical: 8))
        XCTAssertEqual(HLC.stamp(nowMilliseconds: 6000, after: seen), HLC(milliseconds: 6000))
        XCTAssertEqual(HLC.stamp(nowMilliseconds: 4000, offsetMilliseconds: 2000, after: seen), HLC(milliseconds: 6000))
        XCTAssertEqual(HLC.ceiling(ofMilliseconds: 9), HLC(rawValue: 9 * 65536 + 65535))
        XCTAssertEqual(seen.milliseconds, 5000)
        XCTAssertEqual(seen.logical, 7)
        let a = SyncDeviceID(bytes: [UInt8](repeating: 0, count: 15) + [0xFF])!
        let b = SyncDeviceID(bytes: [1] + [UInt8](repeating: 0, count: 15))!
        XCTAssertLessThan(a, b, "device ids compare as unsigned bytes, first byte first")
        XCTAssertLessThan(
            SyncEditStamp(hlc: seen, device: b), SyncEditStamp(hlc: HLC(rawValue: seen.rawValue + 1), device: a))
        XCTAssertLessThan(SyncEditStamp(hlc: seen, device: a), SyncEditStamp(hlc: seen, device: b))
        XCTAssertEqual(SyncDeviceID(bytes: b.bytes), b)
        XCTAssertNil(SyncDeviceID(bytes: [1, 2, 3]))
    }
}

extension SyncRoundTripTests {
    func testAValueAloneRoundTripsThroughItsWireEncoding() throws {
        var random = RandomMessages(seed: 5)
        for _ in 0..<500 {
            let value = random.value()
            XCTAssertEqual(try SyncValue(wireEncoding: value.wireEncoding), value)
        }
        XCTAssertEqual(SyncValue.integer(1).wireEncoding, [0x41])
        XCTAssertThrowsError(try SyncValue(wireEncoding: [0x41, 0x00])) { error in
            XCTAssertEqual((error as? SyncDecodingError)?.description, "value: 1 trailing bytes after the message")
        }
        XCTAssertThrowsError(try SyncValue(wireEncoding: [0x03, 0x05, 0x41]))
    }
}
