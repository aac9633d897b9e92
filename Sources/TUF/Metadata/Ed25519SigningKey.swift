import Crypto
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif

/// An Ed25519 private key that signs metadata (swift-crypto; CryptoKit on Apple platforms).
///
/// It keeps the 32-byte seed, not CryptoKit's key: `Curve25519.Signing.PrivateKey` is not
/// `Sendable` in Apple's SDKs, and building it from the seed for a signature costs microseconds.
public struct Ed25519SigningKey: Sendable {
    /// The 32-byte seed (keep it secret).
    public let rawRepresentation: Data

    /// A new random key.
    public init() { rawRepresentation = Curve25519.Signing.PrivateKey().rawRepresentation }

    /// A key from its 32-byte seed.
    public init(rawRepresentation: Data) throws {
        self.rawRepresentation = try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation)
            .rawRepresentation
    }

    /// The public key in TUF's key format.
    public var publicKey: PublicKey { PublicKey(ed25519: privateKey.publicKey.rawRepresentation) }

    /// The signature of a message, in hex.
    public func sign(_ message: Data) throws -> String {
        Hex.encode(try privateKey.signature(for: message))
    }

    private var privateKey: Curve25519.Signing.PrivateKey {
        // The seed was accepted by this same initializer when the key was made.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation)
    }
}
