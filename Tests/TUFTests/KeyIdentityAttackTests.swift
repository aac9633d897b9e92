import Crypto
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// One key listed under two key ids must count once toward a threshold (tough's CVE-2020-15093),
/// and a key id must be the key's hash, in root and in delegations.
final class KeyIdentityAttackTests: XCTestCase {
    private static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The same Ed25519 key written two other ways, each under the id that is its hash (so the id
    /// rule alone lets both through): with another member, and with its hex in uppercase.
    private static func aliases(of key: PublicKey) throws -> [(id: String, json: JSONObject)] {
        var withMember = key.json
        withMember["x-note"] = .string("the same key")
        var uppercase = key.json
        uppercase["keyval"] = .object(JSONObject([("public", .string(key.publicValue.uppercased()))]))
        return [
            (sha256Hex(try CanonicalJSON.encode(.object(withMember))), withMember),
            (try PublicKey(json: .object(uppercase), document: "test", path: "key").keyID, uppercase),
        ]
    }

    /// A document whose `signatures` list the same signature under each of `keyIDs`.
    private static func sign(_ signed: JSONObject, with key: Ed25519SigningKey, as keyIDs: [String]) throws -> Data {
        let signature = try key.sign(try CanonicalJSON.encode(.object(signed)))
        return try CanonicalJSON.encode(
            .object(
                JSONObject([
                    ("signatures", .array(keyIDs.map { .object(Signature(keyID: $0, signature: signature).json) })),
                    ("signed", .object(signed)),
                ])))
    }

    /// Root `version` with the timestamp role's key listed also under `alias`, threshold 2.
    private static func root(
        _ repository: RepositoryFixture, version: Int64, alias: (id: String, json: JSONObject)
    ) throws -> JSONObject {
        var signed = try repository.rootSigned(version: version)
        var keys = signed["keys"]!.objectValue!
        keys[alias.id] = .object(alias.json)
        signed["keys"] = .object(keys)
        var roles = signed["roles"]!.objectValue!
        let timestampID = try repository.timestampKeys[0].publicKey.keyID
        roles["timestamp"] = .object(
            JSONObject([
                ("keyids", .array([.string(timestampID), .string(alias.id)])), ("threshold", .integer(2)),
            ]))
        signed["roles"] = .object(roles)
        return signed
    }

    func testOneKeyUnderTwoKeyIDsCountsOnce() throws {
        for index in 0..<2 {
            let repository = try RepositoryFixture()
            let key = repository.timestampKeys[0]
            let alias = try Self.aliases(of: key.publicKey)[index]
            let client = try ClientFixture(repository)
            try client.refresh()
            let version = repository.versions["root"]! + 1
            repository.versions["root"] = version
            let root = try Metadata.sign(
                try Self.root(repository, version: version, alias: alias), with: repository.rootKeys)
            try repository.write(root, "\(version).root.json")
            repository.versions["timestamp"]! += 1
            let snapshot = try repository.read("\(repository.versions["snapshot"]!).snapshot.json")
            let timestamp = Timestamp.signed(
                version: repository.versions["timestamp"]!, expires: Date().addingTimeInterval(86_400),
                snapshot: MetaFile(
                    version: repository.versions["snapshot"]!, length: Int64(snapshot.count),
                    hashes: [FileHash.sha256(snapshot)]))
            try repository.write(
                try Self.sign(timestamp, with: key, as: [try key.publicKey.keyID, alias.id]), "timestamp.json")

            try client.assertRefused(
                .belowThreshold(
                    document: "timestamp.json", role: "timestamp", valid: 1, threshold: 2,
                    problems: ["key \(alias.id.prefix(16)) is a key already counted, under another id"]),
                roles: ["timestamp", "snapshot", "targets"])
            XCTAssertEqual(try client.version("root"), version, "alias \(index): root itself is well formed")
        }
    }

    func testAKeyIDThatIsNotTheKeysHashIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let key = repository.timestampKeys[0].publicKey
        for alias in ["alias", try key.keyID.uppercased(), String(repeating: "0", count: 64)] {
            let version = repository.versions["root"]! + 1
            let root = try Metadata.sign(
                try Self.root(repository, version: version, alias: (alias, key.json)), with: repository.rootKeys)
            try repository.write(root, "\(version).root.json")
            try client.assertRefused(
                .malformed(
                    document: "\(version).root.json",
                    reason: "signed.keys.\(alias): the key id is not the SHA-256 of the key's canonical JSON "
                        + "(it is \(try key.keyID))"))
            try FileManager.default.removeItem(
                at: repository.metadataURL.appendingPathComponent("\(version).root.json"))
        }
    }

    func testADelegatedKeyIDThatIsNotTheKeysHashIsRefused() throws {
        let key = Ed25519SigningKey().publicKey
        let delegations = JSONObject([
            ("keys", .object(JSONObject([("not-its-hash", .object(key.json))]))),
            (
                "roles",
                .array([
                    .object(
                        JSONObject([
                            ("name", .string("release")), ("keyids", .array([.string("not-its-hash")])),
                            ("threshold", .integer(1)), ("terminating", .bool(false)),
                            ("paths", .array([.string("*")])),
                        ]))
                ])
            ),
        ])
        var signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(86_400), targets: [])
        signed["delegations"] = .object(delegations)
        let data = try Metadata.sign(signed, with: [Ed25519SigningKey()])
        let keyID = try key.keyID
        XCTAssertThrowsError(try Targets(try Metadata(data: data, document: "targets.json"))) { error in
            XCTAssertEqual(
                error as? TUFError,
                .malformed(
                    document: "targets.json",
                    reason: "signed.delegations.keys.not-its-hash: the key id is not the SHA-256 of the key's "
                        + "canonical JSON (it is \(keyID))"))
        }
    }
}
