import Foundation
import JWTKit

/// Verifies a request's bearer token against a JSON Web Key Set and tells the space it grants
/// (docs/Sync.md, "Auth"). Each key signs one algorithm, told by its type and curve: an OKP
/// Ed25519 key EdDSA, an EC P-256 key ES256, an RSA key RS256 (its `alg`, when the set gives one,
/// must agree; an identity provider's keys often give none). A token is accepted when its
/// header's `alg` is its key's: the key its `kid` names, or, with no `kid`, any key of the set
/// signing that algorithm. `sub` and `exp` required, `nbf` and `iat` checked. The space is
/// `user:SUB`, or `shared:SPACE` when the token names `space`.
public struct TokenVerifier: Sendable {
    /// The algorithms a token may be signed with.
    public static let acceptedAlgorithms: Set<String> = ["EdDSA", "ES256", "RS256"]

    /// One key of the set: the algorithm it signs, and JWTKit's collection of it alone (so a
    /// token is checked against this key and no other).
    private struct Key: Sendable {
        var kid: String
        var algorithm: String
        var collection: JWTKeyCollection
    }

    /// The keys, in the set's order.
    private let keys: [Key]
    /// How far the token's `nbf` and `iat` may be ahead of the server's clock.
    private let leewaySeconds: Double

    /// The verifier of the JWKS in the file at `path`; throws naming the file and the key when the
    /// set is not valid JSON, a key has no `kid`, or a key signs none of the accepted algorithms.
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
        var keys: [Key] = []
        for (index, entry) in list.enumerated() {
            guard let kid = entry["kid"] as? String, !kid.isEmpty else {
                throw SyncServerError(status: 0, "\(source): keys[\(index)] has no \"kid\"")
            }
            guard !keys.contains(where: { $0.kid == kid }) else {
                throw SyncServerError(status: 0, "\(source): kid '\(kid)' appears twice")
            }
            let algorithm = try Self.algorithm(of: entry, kid: kid, source: source)
            // JWTKit makes the key's verifier for the header's algorithm, checked equal to the
            // key's above; its own `alg` (absent, or agreeing) is left out so it cannot differ.
            var stripped = entry
            stripped["alg"] = nil
            let collection = JWTKeyCollection()
            do {
                let json = try JSONSerialization.data(withJSONObject: stripped)
                try await collection.add(jwk: try JSONDecoder().decode(JWK.self, from: json), isDefault: true)
            } catch {
                throw SyncServerError(status: 0, "\(source): key '\(kid)': \(Self.reason(error))")
            }
            keys.append(Key(kid: kid, algorithm: algorithm, collection: collection))
        }
        self.keys = keys
        self.leewaySeconds = leewaySeconds
    }

    /// The one algorithm a key of the set signs, from its `kty` and `crv`; its `alg` and `use`,
    /// when given, must agree.
    private static func algorithm(of key: [String: Any], kid: String, source: String) throws -> String {
        let kty = key["kty"] as? String ?? "(none)"
        let crv = key["crv"] as? String
        let algorithm: String
        switch (kty, crv) {
        case ("OKP", "Ed25519"): algorithm = "EdDSA"
        case ("EC", "P-256"): algorithm = "ES256"
        case ("RSA", _): algorithm = "RS256"
        default:
            throw SyncServerError(
                status: 0,
                "\(source): key '\(kid)': a \(kty) key\(crv.map { " on \($0)" } ?? "") signs none of EdDSA (OKP Ed25519), "
                    + "ES256 (EC P-256), RS256 (RSA)")
        }
        if let alg = key["alg"] as? String, alg != algorithm {
            throw SyncServerError(
                status: 0,
                "\(source): key '\(kid)': algorithm \(alg) is not accepted for a \(kty) key (it signs \(algorithm))")
        }
        if let use = key["use"] as? String, use != "sig" {
            throw SyncServerError(status: 0, "\(source): key '\(kid)': use '\(use)' is not 'sig'")
        }
        return algorithm
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
        let candidates: [Key]
        if let kid = header["kid"] as? String {
            guard let key = keys.first(where: { $0.kid == kid }) else {
                throw SyncServerError.unauthorized("token: unknown kid '\(kid)'")
            }
            guard key.algorithm == alg else {
                throw SyncServerError.unauthorized(
                    "token: algorithm \(alg) does not match key '\(kid)', which signs \(key.algorithm)")
            }
            candidates = [key]
        } else {
            candidates = keys.filter { $0.algorithm == alg }
            guard !candidates.isEmpty else {
                throw SyncServerError.unauthorized("token: no kid, and no key of the set signs \(alg)")
            }
        }
        let claims = try await verify(token, against: candidates)
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

    /// The claims of `token`, whose signature verifies with one of `candidates` (tried in order).
    private func verify(_ token: String, against candidates: [Key]) async throws -> SyncClaims {
        for key in candidates {
            do {
                return try await key.collection.verify(token, as: SyncClaims.self)
            } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
                continue
            } catch {
                throw SyncServerError.unauthorized("token: \(Self.reason(error))")
            }
        }
        throw SyncServerError.unauthorized("token: the signature does not verify")
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
