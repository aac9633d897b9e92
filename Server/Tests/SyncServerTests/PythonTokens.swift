import Foundation
import SyncServerTestSupport

/// JSON Web Tokens signed by python3's `cryptography` (an implementation independent of the
/// server's JWTKit): Ed25519 (EdDSA), P-256 (ES256) and RSA (RS256) keys, their JWKS, and tokens
/// made to order, including forged ones (signed by a key outside the set).
enum PythonTokens {
    static let script = #"""
        import base64, json, sys, time
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
        from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

        def b64(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        def uint(n, length):
            return b64(n.to_bytes(length, "big"))

        keys = {}
        for name in ("ed", "ed-other"):
            keys[name] = ("EdDSA", ed25519.Ed25519PrivateKey.generate())
        for name in ("ec", "ec-other"):
            keys[name] = ("ES256", ec.generate_private_key(ec.SECP256R1()))
        keys["ec-bare"] = ("ES256", ec.generate_private_key(ec.SECP256R1()))
        for name in ("rsa", "rsa-bare", "rsa-other"):
            keys[name] = ("RS256", rsa.generate_private_key(public_exponent=65537, key_size=2048))

        # An identity provider's JWKS often gives no "alg" (nor "use"): the "-bare" keys.
        def jwk(kid, alg, key):
            bare = kid.endswith("-bare")
            public = key.public_key()
            if alg == "EdDSA":
                raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
                return {"kty": "OKP", "crv": "Ed25519", "kid": kid, "x": b64(raw)}
            if alg == "ES256":
                numbers = public.public_numbers()
                named = {} if bare else {"alg": "ES256", "use": "sig"}
                return {"kty": "EC", "crv": "P-256", "kid": kid, "x": uint(numbers.x, 32), "y": uint(numbers.y, 32), **named}
            numbers = public.public_numbers()
            named = {} if bare else {"alg": "RS256"}
            return {"kty": "RSA", "kid": kid, "n": uint(numbers.n, 256), "e": uint(numbers.e, 3), **named}

        def sign(alg, key, data):
            if alg == "EdDSA":
                return key.sign(data)
            if alg == "ES256":
                r, s = decode_dss_signature(key.sign(data, ec.ECDSA(hashes.SHA256())))
                return r.to_bytes(32, "big") + s.to_bytes(32, "big")
            return key.sign(data, padding.PKCS1v15(), hashes.SHA256())

        specs = json.load(sys.stdin)
        now = int(time.time())
        tokens = []
        for spec in specs:
            alg, key = keys[spec["key"]]
            header = {"alg": spec.get("alg", alg), "typ": "JWT"}
            if spec.get("kid") is not None:
                header["kid"] = spec["kid"]
            claims = {k: (now + v if k in ("exp", "nbf", "iat") else v) for k, v in spec["claims"].items()}
            signing_input = (b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())).encode()
            tokens.append(signing_input.decode() + "." + b64(sign(alg, key, signing_input)))
        jwks = {"keys": [jwk(kid, keys[kid][0], keys[kid][1]) for kid in ("ed", "ec", "rsa", "ec-bare", "rsa-bare")]}
        json.dump({"jwks": jwks, "tokens": tokens}, sys.stdout)
        """#

    /// One token to make: signed with `key` (`ed`, `ec`, `rsa`, and `ec-bare`, `rsa-bare` whose JWK
    /// gives no `alg`, in the set; `ed-other`, `ec-other`, `rsa-other` outside it), header `kid` (nil: none) and `alg` (nil: the key's), and `claims` (`exp`,
    /// `nbf`, `iat` as seconds from now).
    struct Spec: Encodable {
        var key: String
        var kid: String?
        var alg: String?
        var claims: [String: Claim]
    }

    /// A claim's value.
    enum Claim: Encodable {
        case text(String)
        case seconds(Int)
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .seconds(let seconds): try container.encode(seconds)
            }
        }
    }

    /// The JWKS of `ed`, `ec`, `rsa`, `ec-bare` and `rsa-bare`, and the tokens of `specs`, in order.
    static func make(_ specs: [Spec]) throws -> (jwks: Data, tokens: [String]) {
        let input = try JSONEncoder().encode(specs)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: output) as? [String: Any],
            let jwks = object["jwks"], let tokens = object["tokens"] as? [String]
        else {
            throw TestSupportError("python3 could not make tokens: \(String(decoding: errors, as: UTF8.self))")
        }
        return (try JSONSerialization.data(withJSONObject: jwks), tokens)
    }
}
