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

/// A public key in TUF's key format: `{"keytype", "scheme", "keyval": {"public"}}`, other members kept.
///
/// Verifies `ed25519` (hex public key) and `ecdsa`/`ecdsa-sha2-nistp256` with scheme `ecdsa-sha2-nistp256`
/// (PEM public key, DER signature). Any other key type verifies nothing: its signatures do not count.
public struct PublicKey: Equatable, Sendable {
    /// `ed25519`, `ecdsa`, `rsa`, ...
    public let keyType: String
    /// The signature scheme: `ed25519`, `ecdsa-sha2-nistp256`, ...
    public let scheme: String
    /// `keyval.public`.
    public let publicValue: String
    /// The key as received.
    public let json: JSONObject

    /// Reads a key object.
    public init(json value: JSONValue, document: String, path: String) throws {
        let reader = try JSONFieldReader(value, document: document, path: path)
        keyType = try reader.string("keytype")
        scheme = try reader.string("scheme")
        publicValue = try reader.object("keyval").string("public")
        json = reader.object
    }

    /// An Ed25519 key of TUF's form, from its 32 raw bytes.
    public init(ed25519 rawRepresentation: Data) {
        keyType = "ed25519"
        scheme = "ed25519"
        publicValue = Hex.encode(rawRepresentation)
        json = JSONObject([
            ("keytype", .string(keyType)),
            ("scheme", .string(scheme)),
            ("keyval", .object(JSONObject([("public", .string(publicValue))]))),
        ])
    }

    /// The key's id as securesystemslib computes it: the SHA-256 of the canonical JSON of
    /// `{"keytype", "scheme", "keyval"}`, in hex.
    public var keyID: String {
        get throws {
            var fields = JSONObject()
            fields["keytype"] = json["keytype"]
            fields["scheme"] = json["scheme"]
            fields["keyval"] = json["keyval"]
            return Hex.encode(SHA256.hash(data: try CanonicalJSON.encode(.object(fields))))
        }
    }

    /// Whether `keyID` names this key: it is the SHA-256 of the canonical JSON of the key, either of
    /// `{"keytype", "scheme", "keyval"}` (``keyID``, securesystemslib's default) or of the whole key object
    /// as received (what securesystemslib computed for a key carrying other members, and what the TUF
    /// conformance suite computes).
    public func isNamed(by keyID: String) throws -> Bool {
        if try self.keyID == keyID { return true }
        return Hex.encode(SHA256.hash(data: try CanonicalJSON.encode(.object(json)))) == keyID
    }

    /// What a key verifies with, whatever its JSON: the raw Ed25519 key or the P-256 point. Two key
    /// entries with the same identity are one key however they are written (another PEM layout, another
    /// key type name, another member), so a threshold counts it once. Nil for a key that verifies nothing.
    public struct Identity: Hashable, Sendable {
        let bytes: Data
    }

    /// The key's ``Identity``, or nil when it is not a key this client verifies with.
    public var identity: Identity? {
        switch (keyType, scheme) {
        case ("ed25519", "ed25519"):
            return Hex.decode(publicValue).map { Identity(bytes: Data("ed25519:".utf8) + $0) }
        case ("ecdsa", "ecdsa-sha2-nistp256"), ("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256"):
            return P256PublicKeyPEM.x963Point(pem: publicValue).map { Identity(bytes: Data("p256:".utf8) + $0) }
        default:
            return nil
        }
    }

    /// Why a signature does not verify with this key, or nil when it does.
    public func problem(signature: String, message: Data) -> String? {
        guard let signatureBytes = Hex.decode(signature), !signatureBytes.isEmpty else {
            return "the signature is not hex"
        }
        switch (keyType, scheme) {
        case ("ed25519", "ed25519"):
            guard let raw = Hex.decode(publicValue),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
            else {
                return "the ed25519 public key is invalid"
            }
            return key.isValidSignature(signatureBytes, for: message) ? nil : "bad signature"
        case ("ecdsa", "ecdsa-sha2-nistp256"), ("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256"):
            guard let point = P256PublicKeyPEM.x963Point(pem: publicValue),
                let key = try? P256.Signing.PublicKey(x963Representation: point)
            else {
                return "the ecdsa public key is invalid"
            }
            guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes) else {
                return "the signature is not a DER ECDSA signature"
            }
            return key.isValidSignature(ecdsa, for: message) ? nil : "bad signature"
        default:
            return "key type \(keyType)/\(scheme) is not supported"
        }
    }
}
