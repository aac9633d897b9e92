import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen sync token` and `dbgen keys jwks`: python3's `cryptography` (the oracle) verifies the
/// token's Ed25519 signature with the public key of the set `dbgen keys jwks` printed, found by
/// the token's `kid`; the private key is never printed, and errors name what failed.
final class DBGenSyncTokenTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("dbgen-sync-token", removedAfter: self)
    }

    @discardableResult
    private func dbgen(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws
        -> ProcessResult
    {
        try BuiltProducts.run("dbgen", arguments, in: directory.url, environment: environment, input: input)
    }

    /// Verifies `token` against `jwks` with python3's cryptography; prints the header and claims.
    private func verify(token: String, jwks: String) throws -> ProcessResult {
        let program = #"""
            import base64, hashlib, json, sys
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
            def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
            token = sys.argv[1].strip()
            keys = json.load(open(sys.argv[2]))["keys"]
            header_b64, payload_b64, signature_b64 = token.split(".")
            header = json.loads(b64(header_b64))
            assert header["alg"] == "EdDSA" and header["typ"] == "JWT", header
            [key] = [k for k in keys if k["kid"] == header["kid"]]
            assert key["kty"] == "OKP" and key["crv"] == "Ed25519" and key["alg"] == "EdDSA", key
            assert set(key) == {"kty", "crv", "x", "kid", "alg", "use"}, key
            # The kid is the RFC 7638 thumbprint of the key.
            thumb = hashlib.sha256(json.dumps({"crv": "Ed25519", "kty": "OKP", "x": key["x"]},
                                   separators=(",", ":"), sort_keys=True).encode()).digest()
            assert key["kid"] == base64.urlsafe_b64encode(thumb).rstrip(b"=").decode(), key
            Ed25519PublicKey.from_public_bytes(b64(key["x"])).verify(
                b64(signature_b64), (header_b64 + "." + payload_b64).encode())
            print(json.dumps(json.loads(b64(payload_b64)), sort_keys=True))
            """#
        let jwksFile = try directory.write("jwks.json", jwks)
        return try Oracle.python3.run(["-c", program, token, jwksFile.path])
    }

    func testATokenVerifiesAgainstThePrintedKeySet() throws {
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "a.key"]).status, 0)
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "b.key"]).status, 0)
        let jwks = try dbgen(["keys", "jwks", "a.key", "b.key"])
        XCTAssertEqual(jwks.status, 0, jwks.stderrText)
        let before = Int(Date().timeIntervalSince1970)
        let token = try dbgen(["sync", "token", "--key", "b.key", "--user", "alice", "--expires", "600"])
        XCTAssertEqual(token.status, 0, token.stderrText)
        let verified = try verify(token: token.stdoutText, jwks: jwks.stdoutText)
        XCTAssertEqual(verified.status, 0, verified.stderrText)
        let claims = try XCTUnwrap(
            JSONSerialization.jsonObject(with: verified.stdout) as? [String: Any])
        XCTAssertEqual(claims["sub"] as? String, "alice")
        XCTAssertNil(claims["space"])
        let issued = try XCTUnwrap(claims["iat"] as? Int)
        XCTAssertGreaterThanOrEqual(issued, before)
        XCTAssertEqual(claims["exp"] as? Int, issued + 600)

        // The key from standard input or the environment; a shared space.
        let keyText = try String(contentsOf: directory.url("a.key"), encoding: .utf8)
        let fromStdin = try dbgen(
            ["sync", "token", "--key", "-", "--user", "bob", "--space", "family"], input: Data(keyText.utf8))
        let fromEnvironment = try dbgen(
            ["sync", "token", "--key", "env:SYNC_KEY", "--user", "bob"], environment: ["SYNC_KEY": keyText])
        for result in [fromStdin, fromEnvironment] {
            XCTAssertEqual(result.status, 0, result.stderrText)
            let checked = try verify(token: result.stdoutText, jwks: jwks.stdoutText)
            XCTAssertEqual(checked.status, 0, checked.stderrText)
            XCTAssertTrue(checked.stdoutText.contains(#""sub": "bob""#), checked.stdoutText)
        }
        XCTAssertTrue(
            try verify(token: fromStdin.stdoutText, jwks: jwks.stdoutText).stdoutText.contains(#""space": "family""#))

        // Neither output holds the private key.
        let seed = keyText.trimmingCharacters(in: .whitespacesAndNewlines)
        for output in [jwks.stdoutText, token.stdoutText, fromStdin.stdoutText] {
            XCTAssertFalse(output.contains(seed))
        }
    }

    func testAForgedOrOtherKeysTokenDoesNotVerify() throws {
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "a.key"]).status, 0)
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "other.key"]).status, 0)
        let jwks = try dbgen(["keys", "jwks", "a.key"]).stdoutText
        let other = try dbgen(["sync", "token", "--key", "other.key", "--user", "alice"]).stdoutText
        XCTAssertNotEqual(try verify(token: other, jwks: jwks).status, 0, "a kid the set does not have")
        // The right key's token with its claims changed: the signature no longer verifies.
        let token = try dbgen(["sync", "token", "--key", "a.key", "--user", "alice"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Data(#"{"exp":9999999999,"sub":"mallory"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        let forged = try verify(token: parts.joined(separator: "."), jwks: jwks)
        XCTAssertNotEqual(forged.status, 0)
        XCTAssertTrue(forged.stderrText.contains("InvalidSignature"), forged.stderrText)
    }

    func testBadInputIsNamedWithExitOne() throws {
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "a.key"]).status, 0)
        try directory.write("not-a-key", "hello\n")
        let cases: [([String], [String: String], String)] = [
            (
                ["sync", "token", "--key", "missing.key", "--user", "a"], [:],
                "missing.key: error: cannot read the key file"
            ),
            (["sync", "token", "--key", "not-a-key", "--user", "a"], [:], "not-a-key: error: not an Ed25519 key file"),
            (
                ["sync", "token", "--key", "env:NOPE", "--user", "a"], [:],
                "env:NOPE: error: the environment variable NOPE is not set"
            ),
            (["sync", "token", "--key", "a.key", "--user", ""], [:], "--user: error: the user is empty"),
            (
                ["sync", "token", "--key", "a.key", "--user", "a", "--expires", "0"], [:],
                "--expires: error: 0 is not a positive"
            ),
            (["keys", "jwks", "a.key", "not-a-key"], [:], "not-a-key: error: not an Ed25519 key file"),
        ]
        for (arguments, environment, message) in cases {
            let result = try dbgen(arguments, environment: environment)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderrText.contains(message), "\(arguments): \(result.stderrText)")
            XCTAssertEqual(result.stdoutText, "", "\(arguments)")
        }
        XCTAssertEqual(try dbgen(["keys", "jwks"]).status, 64)
    }

    func testHelpExplainsTheCommands() throws {
        for (arguments, says) in [
            (["sync", "--help"], "dbgen sync token --key sync.key --user alice"),
            (["sync", "token", "--help"], "JWK thumbprint"),
            (["keys", "jwks", "--help"], "JSON Web Key Set"),
            (["--help"], "sync"),
        ] {
            let result = try dbgen(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stdoutText.contains(says), "\(arguments): \(result.stdoutText)")
        }
    }
}
