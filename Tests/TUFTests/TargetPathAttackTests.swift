import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Names a key holder signs that become files: a target's path (its local file, the path it is
/// served at) and its first hash (the consistent-snapshot prefix), and a delegated role's name
/// (its metadata file). Whatever they hold, the client reads and writes nothing outside its
/// metadata and target directories, and refuses naming the document and the field.
final class TargetPathAttackTests: XCTestCase {
    /// A document with each NUL written `\u0000` (canonical JSON has the byte, which no parser
    /// takes; the escape parses to the same canonical form, so the signature holds).
    private static func escapingNUL(_ data: Data) -> Data {
        Data(data.flatMap { $0 == 0 ? Array("\\u0000".utf8) : [$0] })
    }

    /// Lists one target entry of any content, signed by the repository's targets key.
    private func publish(_ repository: RepositoryFixture, path: String, sha256: String, length: Int) throws {
        repository.versions["targets"]! += 1
        let version = repository.versions["targets"]!
        var signed = Targets.signed(version: version, expires: repository.expiry("targets"), targets: [])
        let entry = JSONObject([
            ("length", .integer(Int64(length))), ("hashes", .object(JSONObject([("sha256", .string(sha256))]))),
        ])
        signed["targets"] = .object(JSONObject([(path, .object(entry))]))
        try repository.write(
            Self.escapingNUL(try Metadata.sign(signed, with: [repository.targetsKey])), "\(version).targets.json")
        try repository.publishSnapshot()
        try repository.publishTimestamp()
    }

    private func everything(_ repository: RepositoryFixture, _ client: ClientFixture) -> [String: Data] {
        var files: [String: Data] = [:]
        for (prefix, directory) in [("repository/", repository.directory.path), ("client/", client.directory.path)] {
            for (name, bytes) in DirectoryTree.files(under: directory) { files[prefix + name] = bytes }
        }
        return files
    }

    func testATargetPathOrHashThatCannotBeANameIsRefused() throws {
        let content = Data("the target's content\n".utf8)
        let digest = FileHash.sha256(content).hex
        let cases: [(path: String, hash: String, field: String)] = [
            ("..", digest, "signed.targets"), (".", digest, "signed.targets"), ("", digest, "signed.targets"),
            ("a/../../outside", digest, "signed.targets"), ("/outside", digest, "signed.targets"),
            ("a\u{0}b", digest, "signed.targets"), (String(repeating: "x", count: 300), digest, "signed.targets"),
            ("dir//file", digest, "signed.targets"),
            ("file.txt", "../../outside", "signed.targets[\"file.txt\"].hashes.sha256"),
            ("file.txt", "ab/cd", "signed.targets[\"file.txt\"].hashes.sha256"),
        ]
        for (path, hash, field) in cases {
            let repository = try RepositoryFixture()
            try publish(repository, path: path, sha256: hash, length: content.count)
            let client = try ClientFixture(repository)
            let updater = try client.updater()
            let target = try XCTUnwrap(
                try synchronously { try await updater.targetInfo(for: path) }, path.debugDescription)
            let before = everything(repository, client)
            XCTAssertNil(updater.cachedTarget(target, in: client.targetsURL))
            XCTAssertThrowsError(
                try synchronously { try await updater.download(target, to: client.targetsURL) }, path.debugDescription
            ) { error in
                guard case .malformed(let document, let reason)? = error as? TUFError else {
                    return XCTFail("\(path.debugDescription): \(error)")
                }
                XCTAssertEqual(document, "targets.json")
                XCTAssertTrue(reason.hasPrefix(field + ": "), "\(path.debugDescription): \(reason)")
            }
            XCTAssertEqual(everything(repository, client), before, path.debugDescription)
        }
    }

    func testAFileURLThatClimbsOutIsNotRead() throws {
        let directory = try TemporaryDirectory("file-fetcher", removedAfter: self)
        try Data("outside\n".utf8).write(to: directory.url("outside.json"))
        try FileManager.default.createDirectory(at: directory.url("metadata"), withIntermediateDirectories: true)
        let base = URL(fileURLWithPath: directory.url("metadata").path, isDirectory: true).absoluteString
        for name in ["..%2Foutside.json", "../outside.json", "x%2F..%2F..%2Foutside.json", "a%00b.json"] {
            let url = try XCTUnwrap(URL(string: base + name))
            XCTAssertThrowsError(try synchronously { try await FileFetcher().fetch(url, maximumLength: 1_000) }, name) {
                error in
                guard case .download(_, let reason)? = error as? TUFError else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue(reason.hasPrefix("refused"), reason)
            }
        }
    }

    func testADelegatedRoleNameThatCannotNameADocumentIsRefused() throws {
        let key = Ed25519SigningKey().publicKey
        let keyID = try key.keyID
        for name in [String(repeating: "r", count: 251), String(repeating: "/", count: 90)] {
            let role = JSONObject([
                ("name", .string(name)), ("keyids", .array([.string(keyID)])), ("threshold", .integer(1)),
                ("terminating", .bool(false)), ("paths", .array([.string("*")])),
            ])
            var signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(3_600), targets: [])
            signed["delegations"] = .object(
                JSONObject([
                    ("keys", .object(JSONObject([(keyID, .object(key.json))]))), ("roles", .array([.object(role)])),
                ]))
            let data = try Metadata.sign(signed, with: [Ed25519SigningKey()])
            XCTAssertThrowsError(try Targets(try Metadata(data: data, document: "targets.json"))) { error in
                guard case .malformed("targets.json", let reason)? = error as? TUFError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(reason.hasPrefix("signed.delegations.roles[0].name: cannot name a document: "), reason)
            }
        }
    }
}
