import Foundation
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// Every attack on the server is refused with nothing written (the three tables compared before
/// and after) and an error naming what failed: tokens missing, forged, expired, of another
/// space or of a refused algorithm (signed by python3's `cryptography`); bodies naming what
/// does not sync, malformed, oversized or inflating past the limit; clocks far ahead.
final class SyncAttackTests: ServerTestCase {
    var python: (jwks: Data, tokens: [String]) = (Data(), [])
    let alice = "alice"

    static let specs: [PythonTokens.Spec] = {
        typealias C = PythonTokens.Claim
        let valid: [String: C] = ["sub": .text("alice"), "exp": .seconds(3600)]
        return [
            .init(key: "ed", kid: "ed", claims: valid), // 0 valid EdDSA
            .init(key: "ec", kid: "ec", claims: valid), // 1 valid ES256
            .init(key: "rsa", kid: "rsa", claims: valid), // 2 valid RS256
            .init(key: "ed-other", kid: "ed", claims: valid), // 3 forged EdDSA
            .init(key: "ec-other", kid: "ec", claims: valid), // 4 forged ES256
            .init(key: "ed", kid: "ed", claims: ["sub": .text("alice"), "exp": .seconds(-10)]), // 5 expired
            .init(key: "ed", kid: "ed", claims: ["sub": .text("alice")]), // 6 no exp
            .init(key: "ed", kid: "ed", claims: ["exp": .seconds(3600)]), // 7 no sub
            // 8: not valid yet; 9: issued in the future.
            .init(key: "ed", kid: "ed", claims: ["sub": .text("alice"), "exp": .seconds(7200), "nbf": .seconds(3600)]),
            .init(key: "ed", kid: "ed", claims: ["sub": .text("alice"), "exp": .seconds(7200), "iat": .seconds(3600)]),
            .init(key: "ed", kid: "zz", claims: valid), // 10 unknown kid
            .init(key: "ed", kid: nil, claims: valid), // 11 no kid
            .init(key: "ed", kid: "ed", alg: "HS256", claims: valid), // 12 refused algorithm
            .init(key: "ed", kid: "ed", alg: "none", claims: valid), // 13 none
            .init(key: "ed", kid: "ed", alg: "RS256", claims: valid), // 14 algorithm confusion
            // 15: alice, granted the shared space "family".
            .init(
                key: "ed", kid: "ed", claims: ["sub": .text("alice"), "exp": .seconds(3600), "space": .text("family")]),
            .init(key: "ed", kid: "ed", claims: ["sub": .text("bob"), "exp": .seconds(3600)]), // 16 bob
            .init(key: "ec-bare", kid: "ec-bare", claims: valid), // 17 ES256, the key's JWK gives no alg
            .init(key: "rsa-bare", kid: "rsa-bare", claims: valid), // 18 RS256, the key's JWK gives no alg
            .init(key: "ec-bare", kid: nil, claims: valid), // 19 ES256, no kid: any ES256 key of the set
            .init(key: "rsa-bare", kid: nil, claims: valid), // 20 RS256, no kid
            .init(key: "rsa-other", kid: nil, claims: valid), // 21 forged RS256, no kid
            .init(key: "rsa-other", kid: "rsa", claims: valid), // 22 forged RS256
            .init(key: "ec", kid: "ec", alg: "ES384", claims: valid), // 23 refused algorithm
            .init(key: "rsa", kid: "rsa", alg: "PS256", claims: valid), // 24 refused algorithm
            .init(key: "ec", kid: "rsa", alg: "ES256", claims: valid), // 25 an ES256 token naming the RSA key
            .init(key: "rsa", kid: "ec-bare", alg: "RS256", claims: valid), // 26 RS256 naming an EC key
        ]
    }()

    override func makeVerifier(_ tokens: TestTokens) async throws -> TokenVerifier {
        python = try PythonTokens.make(Self.specs)
        return try await TokenVerifier(jwks: python.jwks, source: "python JWKS")
    }

    override func configure(_ configuration: SyncServerConfiguration) -> SyncServerConfiguration {
        var configuration = configuration
        configuration.limits = SyncLimits(bodyBytes: 64 << 10, inflatedBytes: 256 << 10, batchRows: 50)
        configuration.maximumClockSkewMilliseconds = 60_000
        return configuration
    }

    /// A device of alice with token `index`.
    func device(token index: Int) throws -> SimulatedDevice {
        SimulatedDevice(baseURL: try XCTUnwrap(server).baseURL, token: python.tokens[index])
    }

    var aliceRow: SyncRequest {
        get throws {
            let device = try device(token: 0)
            return device.request(
                [ServerTestCase.list],
                [.insert(0, .text("row-\(UUID().uuidString)"), [(1, .text("t"))], at: device.stamp())])
        }
    }

    /// Sends `body` with `authorization` and `headers`; asserts the status, that the message
    /// starts `sync: error: ` and contains `words`, and that nothing was written.
    func assertRefused(
        _ body: [UInt8], authorization: String?, headers: [(String, String)] = [], status: Int, _ words: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let before = try serverState()
        let device = try device(token: 0)
        let reply = try await device.post(body, authorization: authorization ?? "", headers: headers)
        XCTAssertEqual(reply.status, status, reply.text, file: file, line: line)
        XCTAssertTrue(reply.text.hasPrefix("sync: error: "), reply.text, file: file, line: line)
        XCTAssertTrue(reply.text.contains(words), "'\(reply.text)' does not say '\(words)'", file: file, line: line)
        XCTAssertEqual(try serverState(), before, "a refused request wrote nothing", file: file, line: line)
    }

    func testEveryAcceptedAlgorithmSyncsIntoTheUsersSpace() async throws {
        let before = try cells(of: "user:alice").count
        // EdDSA, ES256, RS256 by kid; ES256 and RS256 of keys whose JWK gives no alg; and, with no
        // kid, whichever key of the set signs the token's algorithm.
        let accepted = [0, 1, 2, 17, 18, 11, 19, 20]
        for index in accepted {
            let device = try device(token: index)
            let reply = try await device.post(try aliceRow.encoded())
            XCTAssertEqual(reply.status, 200, "token \(index): \(reply.text)")
        }
        XCTAssertEqual(try cells(of: "user:alice").count, before + 2 * accepted.count)
        let shared = try device(token: 15)
        let reply = try await shared.post(try aliceRow.encoded(), headers: [("Shipyard-Space", "shared:family")])
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertGreaterThanOrEqual(try cells(of: "shared:family").count, 2)
    }

    func testBadTokensAreRefusedWith401() async throws {
        let body = try aliceRow.encoded()
        let t = python.tokens
        try await assertRefused(body, authorization: nil, status: 401, "no token")
        try await assertRefused(body, authorization: "Basic YWxpY2U6cHc=", status: 401, "not 'Bearer TOKEN'")
        try await assertRefused(body, authorization: "Bearer abc", status: 401, "not a JWT")
        try await assertRefused(body, authorization: "Bearer \(t[3])", status: 401, "signature")
        try await assertRefused(body, authorization: "Bearer \(t[4])", status: 401, "signature")
        try await assertRefused(body, authorization: "Bearer \(t[5])", status: 401, "expired")
        try await assertRefused(body, authorization: "Bearer \(t[6])", status: 401, "exp are required")
        try await assertRefused(body, authorization: "Bearer \(t[7])", status: 401, "sub and exp")
        try await assertRefused(body, authorization: "Bearer \(t[8])", status: 401, "(nbf)")
        try await assertRefused(body, authorization: "Bearer \(t[9])", status: 401, "(iat)")
        try await assertRefused(body, authorization: "Bearer \(t[10])", status: 401, "unknown kid 'zz'")
        try await assertRefused(body, authorization: "Bearer \(t[21])", status: 401, "the signature does not verify")
        try await assertRefused(body, authorization: "Bearer \(t[22])", status: 401, "the signature does not verify")
        try await assertRefused(body, authorization: "Bearer \(t[23])", status: 401, "algorithm ES384 is not accepted")
        try await assertRefused(body, authorization: "Bearer \(t[24])", status: 401, "algorithm PS256 is not accepted")
        try await assertRefused(
            body, authorization: "Bearer \(t[25])", status: 401,
            "algorithm ES256 does not match key 'rsa', which signs RS256")
        try await assertRefused(
            body, authorization: "Bearer \(t[26])", status: 401,
            "algorithm RS256 does not match key 'ec-bare', which signs ES256")
        try await assertRefused(body, authorization: "Bearer \(t[12])", status: 401, "algorithm HS256 is not accepted")
        try await assertRefused(body, authorization: "Bearer \(t[13])", status: 401, "algorithm none is not accepted")
        try await assertRefused(
            body, authorization: "Bearer \(t[14])", status: 401,
            "algorithm RS256 does not match key 'ed', which signs EdDSA")
        // A token with its payload swapped for another user's: the signature no longer covers it.
        let parts = t[0].split(separator: ".")
        let bobPayload = t[16].split(separator: ".")[1]
        try await assertRefused(
            body, authorization: "Bearer \(parts[0]).\(bobPayload).\(parts[2])", status: 401, "signature")
    }

    func testAKeyThatSignsNoAcceptedAlgorithmIsRefusedAtStart() async throws {
        let cases: [(String, String)] = [
            (#"{"kty":"EC","crv":"P-384","kid":"k","x":"AA","y":"AA"}"#, "key 'k': a EC key on P-384 signs none of"),
            (#"{"kty":"OKP","crv":"X25519","kid":"k","x":"AA"}"#, "key 'k': a OKP key on X25519 signs none of"),
            (#"{"kty":"oct","kid":"k","k":"AA"}"#, "key 'k': a oct key signs none of"),
            (
                #"{"kty":"RSA","kid":"k","alg":"PS256","n":"AA","e":"AQAB"}"#,
                "algorithm PS256 is not accepted for a RSA key"
            ),
            (#"{"kty":"EC","crv":"P-256","kid":"k","alg":"ES256","use":"enc","x":"AA","y":"AA"}"#, "use 'enc'"),
            (#"{"kty":"RSA","n":"AA","e":"AQAB"}"#, "keys[0] has no \"kid\""),
        ]
        for (key, words) in cases {
            do {
                _ = try await TokenVerifier(jwks: Data(#"{"keys":[\#(key)]}"#.utf8), source: "idp.json")
                XCTFail("accepted \(key)")
            } catch let error as SyncServerError {
                XCTAssertTrue(error.reason.hasPrefix("idp.json: "), error.reason)
                XCTAssertTrue(error.reason.contains(words), "'\(error.reason)' does not say '\(words)'")
            }
        }
    }

    func testAnotherSpaceIsRefusedWith403() async throws {
        let body = try aliceRow.encoded()
        let t = python.tokens
        try await assertRefused(
            body, authorization: "Bearer \(t[0])", headers: [("Shipyard-Space", "user:bob")], status: 403, "'user:bob'")
        try await assertRefused(
            body, authorization: "Bearer \(t[15])", headers: [("Shipyard-Space", "user:alice")], status: 403,
            "grants 'shared:family'")
    }

    func testWhatDoesNotSyncIsRefusedWith422() async throws {
        let device = try device(token: 0)
        let auth = "Bearer \(python.tokens[0])"
        let local = device.request(
            [SyncTableColumns(name: "local_only", columns: ["secret"])],
            [.insert(0, .text("x"), [(1, .text("s"))], at: device.stamp())])
        try await assertRefused(local.encoded(), authorization: auth, status: 422, "table 'local_only' does not sync")
        let shipyard = device.request(
            [SyncTableColumns(name: "shipyard_sync", columns: [])], [.insert(0, .text("x"), [], at: device.stamp())])
        try await assertRefused(
            shipyard.encoded(), authorization: auth, status: 422, "table 'shipyard_sync' does not sync")
        let column = device.request(
            [SyncTableColumns(name: "list", columns: ["title", "password"])],
            [.insert(0, .text("x"), [(2, .text("s"))], at: device.stamp())])
        try await assertRefused(
            column.encoded(), authorization: auth, status: 422, "column 'password' of table 'list' does not sync")
    }

    func testMalformedAndOversizedBodiesAreRefused() async throws {
        let auth = "Bearer \(python.tokens[0])"
        let valid = try aliceRow.encoded(compression: .never)
        try await assertRefused(Array(valid.dropLast(3)), authorization: auth, status: 400, "request.")
        try await assertRefused([0, 1, 2, 3], authorization: auth, status: 400, "request.device")
        try await assertRefused(valid + [0], authorization: auth, status: 400, "trailing bytes")
        try await assertRefused([9] + valid.dropFirst(), authorization: auth, status: 400, "request.flags")
        try await assertRefused([UInt8](repeating: 1, count: 70 << 10), authorization: auth, status: 413, "limit")
        // A bomb: a small body that inflates past 256 KiB.
        let device = try device(token: 0)
        let big = device.request(
            [ServerTestCase.list],
            [.insert(0, .text("b"), [(1, .text(String(repeating: "a", count: 400 << 10)))], at: device.stamp())])
        let bomb = big.encoded(compression: .always)
        XCTAssertLessThan(bomb.count, 64 << 10)
        try await assertRefused(bomb, authorization: auth, status: 413, "request.zlib: inflates to more than the limit")
        let many = device.request(
            [ServerTestCase.list], (0..<51).map { .insert(0, .text("m\($0)"), [], at: device.stamp()) })
        try await assertRefused(many.encoded(), authorization: auth, status: 413, "request.batch.rows: 51 items")
        let counter = device.request(
            [ServerTestCase.item], [.update(0, .text("i"), [(4, .integer(5))], at: device.stamp())])
        try await assertRefused(
            counter.encoded(), authorization: auth, status: 400, "is a counter: it takes increments")
    }

    func testAClockFarAheadIsRefusedAndOneSlightlyAheadIsClamped() async throws {
        let auth = "Bearer \(python.tokens[0])"
        let device = try device(token: 0)
        var ahead = try aliceRow
        ahead.clock = UInt64(SimulatedDevice.now() + 3_600_000)
        try await assertRefused(
            ahead.encoded(), authorization: auth, status: 400, "request.clock: the device's clock is")
        let edit = device.request(
            [ServerTestCase.list],
            [.insert(0, .text("future"), [(1, .text("t"))], at: device.stamp(offsetMilliseconds: 3_600_000))])
        try await assertRefused(
            edit.encoded(), authorization: auth, status: 400, "ahead of the server's (at most 60000 ms")
        // 30 s ahead: stored at the server's clock.
        let near = try await device.send(
            device.request(
                [ServerTestCase.list],
                [.insert(0, .text("near"), [(1, .text("t"))], at: HLC(milliseconds: SimulatedDevice.now() + 30_000))]))
        XCTAssertEqual(near.status, .applied)
        let hlc = try XCTUnwrap(
            Int64(
                try requireCluster().psql(
                    "SELECT max(hlc) FROM shipyard_cells WHERE space = 'user:alice' AND pk = '\\x03046e656172'::bytea"
                ).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertLessThanOrEqual(HLC(rawValue: hlc).milliseconds, SimulatedDevice.now())
    }
}
