import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Endless data and numbers out of range: the size cap holds before anything is parsed, and a version of
/// 2^63 (or 0, -1, 1.5) is refused by name.
final class SizeAndRangeAttackTests: XCTestCase {
    func testOversizeTimestampIsRefusedByTheFetcherAtTheCap() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        // 10 MB answer to a document capped at 16 KiB.
        try repository.write(Data(repeating: UInt8(ascii: "{"), count: 10_000_000), "timestamp.json")
        XCTAssertThrowsError(try client.refresh()) { error in
            XCTAssertEqual(
                error as? FetchError,
                .tooLarge(
                    url: repository.metadataURL.appendingPathComponent("timestamp.json").absoluteString, limit: 16_384
                ))
        }
    }

    func testOversizeDocumentIsRefusedBeforeParsing() throws {
        let repository = try RepositoryFixture()
        var set = try TrustedMetadataSet(root: repository.initialRoot)
        // Not JSON at all: the error is the size, so the parser never saw it.
        let oversize = Data(repeating: UInt8(ascii: "["), count: 16_385)
        XCTAssertThrowsError(try set.updateTimestamp(oversize)) { error in
            XCTAssertEqual(error as? TUFError, .tooLarge(document: "timestamp.json", limit: 16_384))
        }
        XCTAssertThrowsError(try TrustedMetadataSet(root: oversize, maximumBytes: 100)) { error in
            XCTAssertEqual(error as? TUFError, .tooLarge(document: "root.json", limit: 100))
        }
    }

    func testDeepNestingIsRefused() throws {
        let deep = Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        XCTAssertThrowsError(try JSONParser(maximumDepth: 64).parse(deep)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "nested deeper than 64")
        }
    }

    private func timestamp(version: JSONValue) throws -> (RepositoryFixture, ClientFixture) {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        var signed = Timestamp.signed(
            version: 2, expires: repository.expiry("timestamp"), snapshot: MetaFile(version: 1)
        )
        signed["version"] = version
        try repository.publishTimestamp(signed: signed)
        return (repository, client)
    }

    func testVersionOf2To63IsRefused() throws {
        let (_, client) = try timestamp(version: .number("9223372036854775808"))
        try client.assertRefused(
            .malformed(
                document: "timestamp.json",
                reason: "signed.version: 9223372036854775808 is out of range 1...9223372036854775807"
            ))
    }

    func testVersionsOutOfRangeAreRefused() throws {
        let values = [
            (JSONValue.integer(0), "0"), (.integer(-1), "-1"),
            (.number("-9223372036854775809"), "-9223372036854775809"),
        ]
        for (value, text) in values {
            let (_, client) = try timestamp(version: value)
            try client.assertRefused(
                .malformed(
                    document: "timestamp.json",
                    reason: "signed.version: \(text) is out of range 1...9223372036854775807"
                ))
        }
        let (_, client) = try timestamp(version: .string("2"))
        try client.assertRefused(
            .malformed(
                document: "timestamp.json", reason: "signed.version: expected an integer, found a string"
            ))
    }

    func testFractionalVersionIsRefused() throws {
        // Canonical JSON has no fractions: such a document cannot even be signed.
        var signed = Timestamp.signed(version: 2, expires: Date(), snapshot: MetaFile(version: 1))
        signed["version"] = .number("1.5")
        XCTAssertThrowsError(try Metadata.sign(signed, with: [Ed25519SigningKey()])) { error in
            XCTAssertEqual(error as? CanonicalJSON.EncodingError, CanonicalJSON.EncodingError(number: "1.5"))
        }
    }

    func testLengthAndThresholdOutOfRangeAreRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        var meta = JSONObject([("version", .integer(1)), ("length", .integer(-1))])
        var signed = Timestamp.signed(
            version: 2, expires: repository.expiry("timestamp"), snapshot: MetaFile(version: 1)
        )
        signed["meta"] = .object(JSONObject([("snapshot.json", .object(meta))]))
        try repository.publishTimestamp(signed: signed)
        try client.assertRefused(
            .malformed(
                document: "timestamp.json",
                reason: "signed.meta.snapshot.json.length: -1 is out of range 0...9223372036854775807"
            ))
        meta["length"] = .number("18446744073709551616")
        signed["meta"] = .object(JSONObject([("snapshot.json", .object(meta))]))
        try repository.publishTimestamp(signed: signed)
        XCTAssertThrowsError(try client.refresh())

        var root = try repository.rootSigned(version: 2)
        var roles = root["roles"]!.objectValue!
        var timestampRole = roles["timestamp"]!.objectValue!
        timestampRole["threshold"] = .integer(0)
        roles["timestamp"] = .object(timestampRole)
        root["roles"] = .object(roles)
        try repository.write(try Metadata.sign(root, with: repository.rootKeys), "2.root.json")
        try client.assertRefused(
            .malformed(
                document: "2.root.json", reason: "signed.roles.timestamp.threshold: 0 is out of range 1...2147483647"
            ))
    }
}

/// A trusted root whose version is at the top of the range (signed by the root keys: only they can do
/// this) ends the root chain where the next version would overflow, rather than trapping.
final class RootVersionLimitTests: XCTestCase {
    func testARootAtTheLargestVersionEndsTheChainWithoutOverflow() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        for version in [Int64.max - 1, Int64.max] {
            let data = try Metadata.sign(try repository.rootSigned(version: version), with: repository.rootKeys)
            try repository.write(data, "\(version).root.json")
        }
        // The chain jumps from 1 to the top: 2.root.json does not exist, so the client stops at 1 ...
        try client.refresh()
        XCTAssertEqual(try client.version("root"), 1)
        // ... and a client that bundles the root one below the top reads the top one and stops there.
        let top = try ClientFixture(repository)
        let nearTop = try Data(contentsOf: repository.metadataURL.appendingPathComponent("\(Int64.max - 1).root.json"))
        try MetadataStore(directory: top.metadataURL).store(nearTop, for: "root")
        try top.refresh()
        XCTAssertEqual(try top.version("root"), Int64.max)
    }
}
