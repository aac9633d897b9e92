import FeedClient
import Foundation
import LayeredDatabase
import TUF
import XCTest

/// A target's facts survive signing: TUF's canonical JSON (what the signatures are over) has no
/// form for a fraction, so the rollout is written as a string holding the decimal.
final class ReleaseFactsTests: XCTestCase {
    func testFactsWithARolloutAreSignedAndReadBack() throws {
        let facts = ReleaseFacts(
            kind: .patch, uncompressedLength: 41_233, uncompressedSHA256: String(repeating: "a", count: 64),
            base: DatabaseVersion(userVersion: 7, sha256: String(repeating: "b", count: 64)),
            result: DatabaseVersion(userVersion: 8, sha256: String(repeating: "c", count: 64)),
            dataFormat: .init(minimum: 1, maximum: 3), channel: "beta", rollout: 0.25, critical: true)
        let key = Ed25519SigningKey()
        let target = TargetFile(path: "patches/b-c.sql.zlib", data: Data("patch".utf8), custom: facts.custom)
        let signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(60), targets: [target])
        let document = try Metadata.sign(signed, with: [key])
        XCTAssertTrue(String(decoding: document, as: UTF8.self).contains(#""rollout":"0.25""#))
        let read = try Targets(try Metadata(data: document, document: "targets.json"))
        XCTAssertEqual(try ReleaseFacts(of: try XCTUnwrap(read.targets[target.path])), facts)
    }

    func testARolloutIsAFractionAboveZero() throws {
        for text in [#""0""#, #""1.5""#, #""nan""#, #""a""#, "0", "2"] {
            let json = try JSONParser().parse(
                Data(
                    #"{"kind":"database","compression":"zlib","uncompressed_length":1,"uncompressed_sha256":"\#(String(repeating: "a", count: 64))","result":{"user_version":1,"sha256":"\#(String(repeating: "a", count: 64))"},"rollout":\#(text)}"#
                        .utf8))
            XCTAssertThrowsError(try ReleaseFacts(json: json, target: "t"), text)
        }
    }

    func testBaseOnlyIsAWholeDatabasesFactSignedAndReadBack() throws {
        let sha = String(repeating: "a", count: 64)
        let base = ReleaseFacts(
            kind: .database, compression: .bzip2, uncompressedLength: 1, uncompressedSHA256: sha, base: nil,
            result: .init(userVersion: 1, sha256: sha), baseOnly: true)
        let key = Ed25519SigningKey()
        let target = TargetFile(path: "releases/a.sqlite.bz2", data: Data("db".utf8), custom: base.custom)
        let document = try Metadata.sign(
            Targets.signed(version: 1, expires: Date().addingTimeInterval(60), targets: [target]), with: [key])
        XCTAssertTrue(String(decoding: document, as: UTF8.self).contains(#""base_only":true"#))
        let read = try Targets(try Metadata(data: document, document: "targets.json"))
        XCTAssertEqual(try ReleaseFacts(of: try XCTUnwrap(read.targets[target.path])), base)
        var release = base
        release.baseOnly = false
        XCTAssertNil(release.json.objectValue?["base_only"], "written only when true")
        var patch = base
        patch.kind = .patch
        patch.base = .init(userVersion: 0, sha256: sha)
        XCTAssertThrowsError(try ReleaseFacts(json: patch.json, target: "p")) { error in
            XCTAssertEqual((error as? ReleaseFactsError)?.reason, "base_only: true for a patch")
        }
    }
}
