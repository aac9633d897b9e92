import FileSystemKit
import EssentialsSupport
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
import TUF

/// Ed25519 keys as JSON Web Keys (RFC 8037: `kty` OKP, `crv` Ed25519, `x` the public key in
/// base64url) and the EdDSA JSON Web Tokens they sign (RFC 7515/7519, compact form), for the
/// sync server: `dbgen keys jwks` prints the set it verifies with, `dbgen sync token` mints a
/// bearer token.
enum JSONWebKey {
    /// A claim's value: a string or an integer.
    enum Claim: Encodable {
        case string(String)
        case integer(Int)

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            }
        }
    }

    /// Base64url without padding (RFC 7515, appendix C).
    static func base64URL(_ bytes: Data) -> String {
        bytes.base64EncodedString().replacingEvery("+", with: "-").replacingEvery("/", with: "_")
            .replacingEvery("=", with: "")
    }

    /// The raw 32-byte public key of `key`.
    static func publicBytes(_ key: Ed25519SigningKey) -> Data {
        Data(hex: key.publicHex)
    }

    /// The key id: the key's JWK thumbprint (RFC 7638): base64url of the SHA-256 of
    /// `{"crv":"Ed25519","kty":"OKP","x":"…"}`.
    static func keyID(_ key: Ed25519SigningKey) -> String {
        let canonical = #"{"crv":"Ed25519","kty":"OKP","x":"\#(base64URL(publicBytes(key)))"}"#
        var hash = SHA256Stream()
        Data(canonical.utf8).withUnsafeBytes { hash.update($0) }
        return base64URL(Data(hex: hash.hexDigest()))
    }

    /// The public JWK of `key` (never its private part).
    static func publicJWK(_ key: Ed25519SigningKey) -> [String: String] {
        [
            "kty": "OKP", "crv": "Ed25519", "x": base64URL(publicBytes(key)), "kid": keyID(key), "alg": "EdDSA",
            "use": "sig",
        ]
    }

    /// `{"keys":[…]}`, keys in the order given, members sorted.
    static func keySet(_ keys: [Ed25519SigningKey]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(["keys": keys.map(publicJWK)])
        return String(decoding: data, as: UTF8.self)
    }

    /// A compact JWT signed with `key`: header `{"alg":"EdDSA","kid":…,"typ":"JWT"}`, then
    /// `claims` (strings and integers).
    static func token(claims: [String: Claim], key: Ed25519SigningKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let header = try encoder.encode(["alg": "EdDSA", "kid": keyID(key), "typ": "JWT"])
        let payload = try encoder.encode(claims)
        let input = base64URL(header) + "." + base64URL(payload)
        let signature = Data(hex: try key.sign(Data(input.utf8)))
        return input + "." + base64URL(signature)
    }
}

extension Data {
    /// The bytes of an even-length lowercase or uppercase hex string (what this code made).
    init(hex: String) {
        var bytes: [UInt8] = []
        var high: UInt8?
        for scalar in hex.unicodeScalars {
            let value: UInt8
            switch scalar {
            case "0"..."9": value = UInt8(scalar.value - 48)
            case "a"..."f": value = UInt8(scalar.value - 87)
            case "A"..."F": value = UInt8(scalar.value - 55)
            default: continue
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        self.init(bytes)
    }
}
