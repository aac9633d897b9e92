import Foundation
import JWTKit

/// An Ed25519 signing key of a test's own, its JWKS (for `--jwks`) and the tokens it signs.
public struct TestTokens: Sendable {
    /// The key id.
    public let kid: String
    private let keys: JWTKeyCollection
    private let publicJWK: String

    /// A new random key called `kid`.
    public init(kid: String = "test-key") async throws {
        let key = try EdDSA.PrivateKey(curve: .ed25519)
        self.kid = kid
        keys = await JWTKeyCollection().add(eddsa: key, kid: JWKIdentifier(string: kid))
        let x = key.publicKey.rawRepresentation.base64URLEncoded
        publicJWK = #"{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","kid":"\#(kid)","x":"\#(x)"}"#
    }

    /// The JSON Web Key Set holding the public key.
    public var jwks: String { #"{"keys":[\#(publicJWK)]}"# }

    /// Writes the JWKS to a new temporary file; returns its path.
    public func writeJWKS() throws -> String {
        let path = NSTemporaryDirectory() + "/shipyard-jwks-\(UUID().uuidString).json"
        try Data(jwks.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A token for `user` (and shared `space`), expiring `expiresIn` seconds from now.
    public func token(user: String, space: String? = nil, expiresIn: Double = 3600) async throws -> String {
        try await keys.sign(
            TestClaims(sub: .init(value: user), exp: .init(value: Date().addingTimeInterval(expiresIn)), space: space),
            kid: JWKIdentifier(string: kid))
    }

    struct TestClaims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var space: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

extension Data {
    /// base64url without padding (RFC 7515).
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
