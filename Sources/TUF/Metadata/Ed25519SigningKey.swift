import Crypto
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

/// An Ed25519 private key that signs metadata (swift-crypto; CryptoKit on Apple platforms).
///
/// It keeps the 32-byte seed, not CryptoKit's key: `Curve25519.Signing.PrivateKey` is not
/// `Sendable` in Apple's SDKs, and building it from the seed for a signature costs microseconds.
public struct Ed25519SigningKey: Sendable {
    /// The 32-byte seed (keep it secret).
    public let rawRepresentation: Data
    /// The public key's 32 bytes, derived once from the seed.
    private let publicKeyBytes: Data

    /// A new random key.
    public init() { self.init(Curve25519.Signing.PrivateKey()) }

    /// A key from its 32-byte seed.
    public init(rawRepresentation: Data) throws {
        self.init(try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation))
    }

    private init(_ key: Curve25519.Signing.PrivateKey) {
        rawRepresentation = key.rawRepresentation
        publicKeyBytes = key.publicKey.rawRepresentation
    }

    /// The public key in TUF's key format.
    public var publicKey: PublicKey { PublicKey(ed25519: publicKeyBytes) }

    /// The signature of a message, in hex.
    public func sign(_ message: Data) throws -> String {
        // The seed was accepted by this same initializer when the key was made.
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        return Hex.encode(try key.signature(for: message))
    }
}
