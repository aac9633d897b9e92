#if canImport(CryptoKit)
import CryptoKit
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A SHA-256 fed in pieces, whose digest is lowercase hexadecimal text: CryptoKit's where the
/// system has it, ``SHA256Hasher`` (the CPU's SHA instructions, or portable Swift) elsewhere.
package struct SHA256Stream {
    #if canImport(CryptoKit)
    private var hasher = CryptoKit.SHA256()
    #else
    private var hasher = SHA256Hasher()
    #endif

    package init() {}

    /// Feeds `bytes` after those fed before.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        hasher.update(bufferPointer: bytes)
        #else
        hasher.update(bytes)
        #endif
    }

    /// The digest of the bytes fed so far, as 64 lowercase hexadecimal digits.
    package func hexDigest() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in hasher.finalize() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
