import Crypto
import Foundation

/// An Ed25519 private key that signs metadata (swift-crypto; CryptoKit on Apple platforms).
public struct Ed25519SigningKey: Sendable {
    private let key: Curve25519.Signing.PrivateKey

    /// A new random key.
    public init() { key = Curve25519.Signing.PrivateKey() }

    /// A key from its 32-byte seed.
    public init(rawRepresentation: Data) throws {
        key = try Curve25519.Signing.PrivateKey(rawRepresentation: rawRepresentation)
    }

    /// The 32-byte seed (keep it secret).
    public var rawRepresentation: Data { key.rawRepresentation }

    /// The public key in TUF's key format.
    public var publicKey: PublicKey { PublicKey(ed25519: key.publicKey.rawRepresentation) }

    /// The signature of a message, in hex.
    public func sign(_ message: Data) throws -> String {
        Hex.encode(try key.signature(for: message))
    }
}
