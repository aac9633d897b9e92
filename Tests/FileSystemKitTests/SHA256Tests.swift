@testable import FileSystemKit
import Foundation
import ShipyardTestSupport
import XCTest

/// FileSystemKit's SHA-256 (SHA256Hasher with each compression this machine has, the CPU's SHA
/// instructions and the portable Swift, and SHA256Stream, which is CryptoKit's on Apple platforms
/// and SHA256Hasher elsewhere) against FIPS 180-4's examples, python3's hashlib and sha256sum.
final class SHA256Tests: XCTestCase {
    /// The digests of `bytes` fed in pieces of `chunkSizes` (cycled): SHA256Hasher's with each
    /// available compression, and SHA256Stream's.
    private func digests(of bytes: [UInt8], chunkSizes: [Int] = [Int.max]) -> (hashers: [String], stream: String) {
        var hashers = SHA256Compression.available.map { SHA256Hasher(compression: $0) }
        var stream = SHA256Stream()
        bytes.withUnsafeBytes { all in
            var offset = 0
            var index = 0
            while offset < all.count {
                let count = min(chunkSizes[index % chunkSizes.count], all.count - offset)
                let piece = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)])
                for index in hashers.indices { hashers[index].update(piece) }
                stream.update(piece)
                offset += count
                index += 1
            }
        }
        let hex = hashers.map { $0.finalize().map { String(format: "%02x", $0) }.joined() }
        return (hex, stream.hexDigest())
    }

    private func assertDigest(
        of bytes: [UInt8], is expected: String, chunkSizes: [Int] = [Int.max],
        _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let (hashers, stream) = digests(of: bytes, chunkSizes: chunkSizes)
        for (compression, digest) in zip(SHA256Compression.available, hashers) {
            XCTAssertEqual(digest, expected, "SHA256Hasher (\(compression)), \(message)", file: file, line: line)
        }
        XCTAssertEqual(stream, expected, "SHA256Stream, \(message)", file: file, line: line)
    }

    /// The examples of FIPS 180-4 / NIST's SHA-256 test vectors, checked against hashlib too.
    func testTheStandardVectors() throws {
        let vectors: [(String, [UInt8])] = [
            ("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", []),
            ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Array("abc".utf8)),
            (
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
            ),
            (
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
                Array(
                    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
                        + "rsmnopqrstnopqrstu").utf8)
            ),
            (
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
            ),
        ]
        let directory = try TemporaryDirectory("sha256-vectors", removedAfter: self)
        for (index, (expected, bytes)) in vectors.enumerated() {
            let path = try directory.write("vector-\(index)", Data(bytes)).path
            XCTAssertEqual(try hashlibSHA256(path), expected, "the oracle agrees on vector \(index)")
            assertDigest(of: bytes, is: expected, "vector \(index)")
            assertDigest(of: bytes, is: expected, chunkSizes: [1, 63, 2, 65], "vector \(index) in pieces")
        }
    }

    /// Every length from 0 to 200 bytes (every padding case: one block, two blocks, the length
    /// field alone in the last block), against hashlib.
    func testEveryLengthUpTo200BytesMatchesHashlib() throws {
        let directory = try TemporaryDirectory("sha256-lengths", removedAfter: self)
        var generator = SeededGenerator(seed: 256)
        let bytes = (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = try directory.write("prefixes", Data(bytes)).path
        let expected = try Oracle.python3.output([
            "-c",
            """
            import hashlib, sys
            data = open(sys.argv[1], 'rb').read()
            for n in range(len(data) + 1): print(hashlib.sha256(data[:n]).hexdigest())
            """, path,
        ]).split(separator: "\n").map(String.init)
        XCTAssertEqual(expected.count, 201)
        for length in 0...200 {
            assertDigest(of: Array(bytes[0..<length]), is: expected[length], "\(length) bytes")
            assertDigest(
                of: Array(bytes[0..<length]), is: expected[length], chunkSizes: [7, 1, 64, 13],
                "\(length) bytes in pieces")
        }
    }

    /// A stream fed in pieces of odd sizes (1 byte, a block less one, a block more one, primes,
    /// pieces larger than the file reader's) hashes as the whole.
    func testStreamingInOddPiecesMatchesHashlib() throws {
        let directory = try TemporaryDirectory("sha256-stream", removedAfter: self)
        var generator = SeededGenerator(seed: 180)
        let bytes = (0..<300_007).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = try hashlibSHA256(try directory.write("stream", Data(bytes)).path)
        let patterns: [[Int]] = [[1], [63], [65], [64], [3, 5, 7, 11, 13], [4097, 1, 127], [100_000], [299_999, 8]]
        for pattern in patterns {
            assertDigest(of: bytes, is: expected, chunkSizes: pattern, "pieces of \(pattern)")
        }
        var randomSizes: [Int] = []
        for _ in 0..<200 { randomSizes.append(Int.random(in: 1...5000, using: &generator)) }
        assertDigest(of: bytes, is: expected, chunkSizes: randomSizes, "pieces of random sizes")
    }

    /// A file larger than many of the reader's 1 MiB pieces, hashed from disk, against
    /// `sha256sum` (a second oracle, besides hashlib).
    func testALargeFileMatchesSha256sum() throws {
        let directory = try TemporaryDirectory("sha256-large", removedAfter: self)
        var generator = SeededGenerator(seed: 1024)
        let size = 24 * ContentHash.chunkSize + 4321
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 8) {
            let word = generator.next()
            for byte in 0..<min(8, size - index) { bytes[index + byte] = UInt8(truncatingIfNeeded: word >> (8 * byte)) }
        }
        let path = try directory.write("large.bin", Data(bytes)).path
        let sum = try ProcessRunner.run("/usr/bin/env", ["sha256sum", path])
        XCTAssertEqual(sum.status, 0, sum.stderrText)
        let expected = String(sum.stdoutText.prefix(64))
        XCTAssertEqual(try ContentHash.sha256(ofFileAt: path), expected)
        XCTAssertEqual(try hashlibSHA256(path), expected)
    }

    /// The fast path is there to be tested: on an x86-64 Linux machine whose CPU reports SHA-NI
    /// (`sha_ni` in /proc/cpuinfo) or an ARMv8 one reporting `sha2`, the CPU's instructions are
    /// available and are what SHA256Stream uses, unless `SHIPYARD_SHA256=portable` forces the
    /// portable code (CI runs this suite both ways).
    func testTheCPUInstructionsAreUsedWhereTheCPUHasThem() throws {
        #if os(Linux)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(cpuinfo.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init))
        let reported = flags.contains("sha_ni") || flags.contains("sha2")
        XCTAssertEqual(SHA256Compression.hasCPUInstructions, reported, "CSHA256's CPU check agrees with /proc/cpuinfo")
        let forcedPortable = ProcessInfo.processInfo.environment["SHIPYARD_SHA256"] == "portable"
        XCTAssertEqual(
            SHA256Compression.fastest, reported && !forcedPortable ? .cpuInstructions : .portable,
            "the hash in use (SHIPYARD_SHA256=\(forcedPortable ? "portable" : "unset"))")
        #endif
    }

    /// Random lengths and random piece sizes over a few megabytes, every compression against
    /// hashlib: the CPU path and the portable one agree on every length and chunking.
    func testEveryCompressionAgreesWithHashlibOnRandomInputs() throws {
        let directory = try TemporaryDirectory("sha256-random", removedAfter: self)
        var generator = SeededGenerator(seed: 6_400)
        var inputs: [[UInt8]] = []
        for _ in 0..<40 {
            let length = Int.random(in: 0...70_000, using: &generator)
            inputs.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for (index, bytes) in inputs.enumerated() {
            let expected = try hashlibSHA256(try directory.write("random-\(index)", Data(bytes)).path)
            let sizes = (0..<16).map { _ in Int.random(in: 1...9_000, using: &generator) }
            assertDigest(of: bytes, is: expected, chunkSizes: sizes, "random input \(index) (\(bytes.count) bytes)")
        }
    }
}
