import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import XCTest

/// SQLPack under seeded random input: patch-shaped text of every kind the packer meets packs
/// and unpacks to itself, and packed bytes damaged at random are refused by name or unpack
/// within the cap: the reader never traps, loops or outgrows its limit.
final class SQLPackRandomTests: XCTestCase {
    /// A patch-like text: UPDATE and DELETE lines with keys that rise, fall, go negative or
    /// reach 64 bits, words from a small vocabulary and other characters, quotes, newlines.
    private func patchText(_ generator: inout SeededGenerator) -> [UInt8] {
        let words = ["apple", "crème", "brûlée", "豆腐", "oat", "x", "WHERE", "pk", "=", ";", "'", "\n", "-", "0", "12"]
        var text = ""
        for _ in 0..<Int.random(in: 1...300, using: &generator) {
            let key: Int64
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: key = Int64.random(in: Int64.min...Int64.max, using: &generator)
            case 1: key = -Int64.random(in: 0...1000, using: &generator)
            default: key = Int64.random(in: 0...400_000, using: &generator)
            }
            let value = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                words.randomElement(using: &generator)!
            }
            .joined(separator: Bool.random(using: &generator) ? " " : "")
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: text += "DELETE FROM t WHERE pk=\(key);\n"
            case 1: text += "INSERT INTO t VALUES(\(key),'\(value)');\n"
            case 2: text += "\(value)\n"
            default: text += "UPDATE t SET \"c\"='\(value)' WHERE pk=\(key);\n"
            }
        }
        return Array(text.utf8)
    }

    func testRandomPatchesRoundTrip() throws {
        var generator = SeededGenerator(seed: 2911)
        for round in 0..<300 {
            let text = patchText(&generator)
            let packed = try XCTUnwrap(SQLPacker.encode(text), "round \(round)")
            XCTAssertTrue(SQLPacker.unpacks(packed, to: text), "round \(round)")
            if let smaller = SQLPacker.pack(text) { XCTAssertLessThanOrEqual(smaller.count, text.count) }
        }
    }

    func testDamagedPackedBytesAreRefusedOrStayUnderTheCap() throws {
        var generator = SeededGenerator(seed: 2912)
        var refused = 0
        for round in 0..<2_000 {
            var packed = SQLPacker.encode(patchText(&generator))!
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<packed.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: packed[at] = UInt8.random(in: 0...255, using: &generator)
                case 1: packed.removeSubrange(at...)
                default: packed.insert(UInt8.random(in: 0xF5...0xFF, using: &generator), at: at)
                }
                if packed.isEmpty { packed = [0] }
            }
            let limit = Int64.random(in: 0...20_000, using: &generator)
            let unpacker = SQLPack.Unpacker(limit: limit)
            var produced = 0
            do {
                try packed.withUnsafeBytes { bytes in
                    // In pieces of 1 to 64 bytes, as a download arrives.
                    var offset = 0
                    while offset < bytes.count {
                        let end = min(bytes.count, offset + Int.random(in: 1...64, using: &generator))
                        try unpacker.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) {
                            produced += $0.count
                        }
                        offset = end
                    }
                }
                try unpacker.finish()
            } catch is SQLPack.Failure {
                refused += 1
            } catch {
                XCTFail("round \(round): \(error) is not a SQLPack failure")
            }
            XCTAssertLessThanOrEqual(Int64(produced), limit, "round \(round)")
            XCTAssertEqual(Int64(produced), unpacker.produced, "round \(round)")
        }
        XCTAssertGreaterThan(refused, 1_000, "most damage is caught by the format itself")
    }
}
