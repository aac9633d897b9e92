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

/// A P-256 public key in PEM (SubjectPublicKeyInfo), as securesystemslib writes ecdsa keys.
///
/// CryptoKit reads PEM and DER only from iOS 14 / macOS 11; the uncompressed point is read here instead,
/// which `P256.Signing.PublicKey(x963Representation:)` takes from iOS 13 / macOS 10.15.
enum P256PublicKeyPEM {
    /// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (65 bytes) }: all but the point.
    private static let prefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
        0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The 65-byte uncompressed point (`04 || X || Y`) of a PEM public key, or nil.
    static func x963Point(pem: String) -> Data? {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingSpacesAndTabs() }
        guard lines.first == "-----BEGIN PUBLIC KEY-----", lines.last == "-----END PUBLIC KEY-----" else { return nil }
        guard let der = Data(base64Encoded: lines.dropFirst().dropLast().joined()),
            der.count == prefix.count + 65, der.starts(with: prefix)
        else { return nil }
        return der.suffix(65)
    }
}
