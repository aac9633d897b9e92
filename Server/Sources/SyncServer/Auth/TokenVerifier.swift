import Foundation
import JWTKit

/// Verifies a request's bearer token against a JSON Web Key Set and tells the space it grants
/// (docs/Sync.md, "Auth"): EdDSA (Ed25519), ES256 and RS256 only; `kid` must name a key of the
/// set when the set has more than one; `sub` and `exp` required, `nbf` and `iat` checked. The
/// space is `user:SUB`, or `shared:SPACE` when the token names `space`.
public struct TokenVerifier: Sendable {
    /// The algorithms a token may be signed with.
    public static let acceptedAlgorithms: Set<String> = ["EdDSA", "ES256", "RS256"]

    private let keys: JWTKeyCollection
    /// Each key's algorithm, by kid: OKP keys sign EdDSA, EC keys ES256, RSA keys RS256.
    private let kids: [String: String]
    /// How far the token's `nbf` and `iat` may be ahead of the server's clock.
    private let leewaySeconds: Double

    /// The verifier of the JWKS in the file at `path`; throws naming the file and the key when the
    /// set is not valid JSON, a key has no `kid`, an unknown `kty`, or an algorithm not accepted.
    public init(jwksFile path: String, leewaySeconds: Double = 60) async throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SyncServerError(status: 0, "\(path): cannot read the JWKS file")
        }
        try await self.init(jwks: data, source: path, leewaySeconds: leewaySeconds)
    }

    /// The verifier of the JWKS `data`; `source` names it in errors.
    public init(jwks data: Data, source: String, leewaySeconds: Double = 60) async throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = object["keys"] as? [[String: Any]], !list.isEmpty
        else {
            throw SyncServerError(
                status: 0, "\(source): not a JSON Web Key Set (an object with a non-empty \"keys\" array)")
        }
        var kids: [String: String] = [:]
        for (index, key) in list.enumerated() {
            guard let kid = key["kid"] as? String, !kid.isEmpty else {
                throw SyncServerError(status: 0, "\(source): keys[\(index)] has no \"kid\"")
            }
            guard let kty = key["kty"] as? String, ["OKP", "EC", "RSA"].contains(kty) else {
                throw SyncServerError(status: 0, "\(source): key '\(kid)': \"kty\" must be OKP, EC or RSA")
            }
            if let alg = key["alg"] as? String, !Self.acceptedAlgorithms.contains(alg) {
                throw SyncServerError(
                    status: 0, "\(source): key '\(kid)': algorithm \(alg) is not accepted (EdDSA, ES256, RS256)")
            }
            let algorithm = ["OKP": "EdDSA", "EC": "ES256", "RSA": "RS256"][kty] ?? kty
            if let alg = key["alg"] as? String, alg != algorithm {
                throw SyncServerError(status: 0, "\(source): key '\(kid)': a \(kty) key does not sign \(alg)")
            }
            guard kids[kid] == nil else { throw SyncServerError(status: 0, "\(source): kid '\(kid)' appears twice") }
            kids[kid] = algorithm
        }
        let keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: String(decoding: data, as: UTF8.self))
        } catch {
            throw SyncServerError(status: 0, "\(source): \(error)")
        }
        self.keys = keys
        self.kids = kids
        self.leewaySeconds = leewaySeconds
    }

    /// The space the token in `authorization` (`Bearer TOKEN`) grants, at `now`; throws a 401
    /// naming what failed.
    public func space(authorization: String?, now: Date = Date()) async throws -> String {
        guard let authorization, !authorization.isEmpty else {
            throw SyncServerError.unauthorized("no token: send Authorization: Bearer TOKEN")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw SyncServerError.unauthorized("the Authorization header is not 'Bearer TOKEN'")
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        let header = try Self.header(of: token)
        guard let alg = header["alg"] as? String, Self.acceptedAlgorithms.contains(alg) else {
            throw SyncServerError.unauthorized(
                "token: algorithm \(header["alg"].map { "\($0)" } ?? "(none)") is not accepted (EdDSA, ES256, RS256)")
        }
        let kid: String
        if let named = header["kid"] as? String {
            kid = named
        } else if kids.count == 1, let only = kids.keys.first {
            kid = only
        } else {
            throw SyncServerError.unauthorized("token: no kid, and the key set has \(kids.count) keys")
        }
        guard let keyAlgorithm = kids[kid] else { throw SyncServerError.unauthorized("token: unknown kid '\(kid)'") }
        guard keyAlgorithm == alg else {
            throw SyncServerError.unauthorized(
                "token: algorithm \(alg) does not match key '\(kid)', which signs \(keyAlgorithm)")
        }
        let claims: SyncClaims
        do {
            claims = try await keys.verify(token, as: SyncClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw SyncServerError.unauthorized("token: the signature does not verify")
        } catch {
            throw SyncServerError.unauthorized("token: \(Self.reason(error))")
        }
        guard claims.exp.value > now else {
            throw SyncServerError.unauthorized("token: expired at \(Int(claims.exp.value.timeIntervalSince1970)) (exp)")
        }
        if let nbf = claims.nbf, nbf.value.timeIntervalSince(now) > leewaySeconds {
            throw SyncServerError.unauthorized("token: not valid before \(Int(nbf.value.timeIntervalSince1970)) (nbf)")
        }
        if let iat = claims.iat, iat.value.timeIntervalSince(now) > leewaySeconds {
            throw SyncServerError.unauthorized(
                "token: issued in the future, at \(Int(iat.value.timeIntervalSince1970)) (iat)")
        }
        let subject = claims.sub.value
        guard Self.isName(subject) else {
            throw SyncServerError.unauthorized("token: sub must be 1 to 256 printable characters")
        }
        if let space = claims.space {
            guard Self.isName(space) else {
                throw SyncServerError.unauthorized("token: space must be 1 to 256 printable characters")
            }
            return "shared:\(space)"
        }
        return "user:\(subject)"
    }

    /// The token's header as JSON, or a 401.
    static func header(of token: String) throws -> [String: Any] {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw SyncServerError.unauthorized("token: not a JWT (three base64url parts separated by dots)")
        }
        var base64 = segments[0].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw SyncServerError.unauthorized("token: the header is not base64url JSON")
        }
        return header
    }

    /// A user or space name: 1–256 characters, none a control character.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? JWTError {
            if error.underlying is DecodingError || (error.reason ?? "").contains("decode") {
                return "the claims do not decode (sub and exp are required: a string and a number)"
            }
            return (error.reason ?? "\(error.errorType)").split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        if error is DecodingError { return "the claims do not decode (sub and exp are required)" }
        return "\(error)"
    }
}
