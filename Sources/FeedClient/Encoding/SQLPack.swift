/// SQLPack: a reversible packing of a `dbgen diff` patch that a general-purpose compressor then
/// shrinks further, because it writes what the patch repeats in a form the compressor models
/// well. A packed patch is compressed (``TargetCompression``) like any target; the client
/// decompresses it, unpacks it (``SQLPack/Unpacker``) and checks the result against the SHA-256
/// its facts declare, so it installs exactly the SQL `dbgen diff` wrote.
///
/// Two things fill a patch that is mostly `UPDATE t SET c=v WHERE pk=N;` lines: row keys, which
/// rise through the table (a key is written as its difference from the one before: a few
/// digits instead of six or seven), and the words of text values (a word used often is written
/// as two bytes). On the 300k-row food benchmark this makes a bzip2 patch a third smaller.
///
/// The format (bytes 0xF5 to 0xFF never occur in UTF-8, so they cannot clash with SQL text; the
/// packer refuses a patch holding any of them, which is then published unpacked):
/// ```
/// 0xF5 "sqlpack1\n"          the signature
/// N                          one byte: the number of dictionary words (0 to 255)
/// N × (L, L bytes)           each word: its length (1 to 255) and its bytes (none 0xF5 or above)
/// body                       the SQL, where
///   0xF8 I                   stands for dictionary word I
///   0xF9 ["-"] DIGITS        stands for the decimal key K + DIGITS (negative with "-"), K the
///                            key the previous 0xF9 stood for (0 before the first); a byte that
///                            is not a digit ends DIGITS and is itself part of the body
/// ```
/// Nothing else of 0xF5 and above may appear in the body.
package enum SQLPack {
    /// The bytes a packed patch starts with.
    package static let signature: [UInt8] = [0xF5] + Array("sqlpack1\n".utf8)
    /// The body's escape for a dictionary word.
    package static let wordCode: UInt8 = 0xF8
    /// The body's escape for a key written as a difference.
    package static let keyCode: UInt8 = 0xF9
    /// The first byte value that never occurs in UTF-8 (and so never in unpacked SQL text).
    package static let firstReservedByte: UInt8 = 0xF5
    /// The most dictionary words.
    package static let maximumWords = 255

    /// Why a packed patch could not be unpacked.
    package enum Failure: TargetEncodingFailure, Equatable, Sendable {
        /// The bytes break the format (what is wrong).
        case corrupt(String)
        /// The patch unpacks to more than the cap: nothing past the cap was produced.
        case tooLarge(limit: Int64)
        /// The bytes end inside the signature, the dictionary or a key.
        case truncated

        package var description: String {
            switch self {
            case .corrupt(let message): return "not a valid SQLPack patch (\(message))"
            case .tooLarge(let limit): return "unpacks to more than the \(limit) bytes its metadata declares"
            case .truncated: return "the SQLPack patch ends early"
            }
        }
    }

    /// Unpacks a packed patch fed piece by piece, refusing to produce more than `limit` bytes.
    /// Each ``append(_:to:)`` hands everything its input completes to `sink` before it returns.
    package final class Unpacker: TargetDecoder {
        private enum State {
            case signature(matched: Int)
            case wordCount
            case wordLength
            case word(remaining: Int)
            case body
            case wordIndex
            case keySign
            case keyDigits(negative: Bool, value: Int64, digits: Int)
        }

        private let limit: Int64
        private var state = State.signature(matched: 0)
        private var wordCount = 0
        private var words: [[UInt8]] = []
        private var key: Int64 = 0
        private var output: [UInt8] = []
        package private(set) var produced: Int64 = 0

        /// An unpacker producing at most `limit` bytes.
        package init(limit: Int64) {
            self.limit = limit
        }

        package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
            output.removeAll(keepingCapacity: true)
            for byte in input { try take(byte) }
            guard !output.isEmpty else { return }
            produced += Int64(output.count)
            guard produced <= limit else { throw Failure.tooLarge(limit: limit) }
            try output.withUnsafeBytes { try sink($0) }
        }

        package func finish() throws {
            // A key is always followed by its statement's `;`: a patch ending inside one was cut.
            guard case .body = state else { throw Failure.truncated }
        }

        private func take(_ byte: UInt8) throws {
            switch state {
            case .signature(let matched):
                guard byte == SQLPack.signature[matched] else { throw Failure.corrupt("no SQLPack signature") }
                state = matched + 1 == SQLPack.signature.count ? .wordCount : .signature(matched: matched + 1)
            case .wordCount:
                wordCount = Int(byte)
                state = wordCount == 0 ? .body : .wordLength
            case .wordLength:
                guard byte > 0 else { throw Failure.corrupt("dictionary word \(words.count) is empty") }
                words.append([])
                state = .word(remaining: Int(byte))
            case .word(let remaining):
                guard byte < SQLPack.firstReservedByte else {
                    throw Failure.corrupt("dictionary word \(words.count - 1) holds byte \(byte)")
                }
                words[words.count - 1].append(byte)
                state =
                    remaining > 1 ? .word(remaining: remaining - 1) : words.count == wordCount ? .body : .wordLength
            case .body:
                try body(byte)
            case .wordIndex:
                guard Int(byte) < words.count else {
                    throw Failure.corrupt("word \(byte) of a dictionary of \(words.count)")
                }
                try emit(words[Int(byte)])
                state = .body
            case .keySign:
                if byte == UInt8(ascii: "-") {
                    state = .keyDigits(negative: true, value: 0, digits: 0)
                } else {
                    state = .keyDigits(negative: false, value: 0, digits: 0)
                    try take(byte)
                }
            case .keyDigits(let negative, let value, let digits):
                if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                    guard !overflow, !overflow2 else { throw Failure.corrupt("a key difference past 64 bits") }
                    state = .keyDigits(negative: negative, value: sum, digits: digits + 1)
                    return
                }
                guard digits > 0 else { throw Failure.corrupt("a key escape without digits") }
                let (next, overflow) = key.addingReportingOverflow(negative ? -value : value)
                guard !overflow else { throw Failure.corrupt("a key past 64 bits") }
                key = next
                try emit(Array(String(next).utf8))
                state = .body
                try body(byte)
            }
        }

        private func body(_ byte: UInt8) throws {
            switch byte {
            case SQLPack.wordCode: state = .wordIndex
            case SQLPack.keyCode: state = .keySign
            case SQLPack.firstReservedByte...: throw Failure.corrupt("byte \(byte) in the body")
            default: try emit(CollectionOfOne(byte))
            }
        }

        private func emit<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
            guard produced + Int64(output.count) + Int64(bytes.count) <= limit else {
                throw Failure.tooLarge(limit: limit)
            }
            output.append(contentsOf: bytes)
        }
    }
}
