import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Numbers past 64 bits, validly signed: a timestamp version of 2^63 and a release whose
/// user_version is 2^63 are refused as malformed, never wrapped around.
final class OverflowTests: XCTestCase {
    static let twoToThe63 = "9223372036854775808"

    func testATimestampVersionOf2To63IsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let writer = fixture.writer
        let snapshot = try writer.read("\(writer.versions["snapshot"]!).snapshot.json")
        var signed = Timestamp.signed(
            version: 1, expires: writer.expiry("timestamp"),
            snapshot: MetaFile(
                version: writer.versions["snapshot"]!, length: Int64(snapshot.count),
                hashes: [FileHash.sha256(snapshot)]))
        signed["version"] = .number(Self.twoToThe63)
        try writer.writeTimestamp(signed: signed)
        XCTAssertTrue(String(decoding: try writer.read("timestamp.json"), as: UTF8.self).contains(Self.twoToThe63))

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .malformed)
    }

    func testAUserVersionOf2To63IsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2File = try fixture.release(2)
        let v2 = try fixture.writer.publish(v2File)
        let whole = try XCTUnwrap(fixture.writer.wholeTarget(v2))
        let text = String(decoding: try CanonicalJSON.encode(whole.custom!), as: UTF8.self)
            .replacingOccurrences(of: "\"user_version\":2", with: "\"user_version\":\(Self.twoToThe63)")
        let custom = try JSONParser().parse(Data(text.utf8))
        fixture.writer.targets.removeAll { $0.path == whole.path }
        fixture.writer.targets.append(
            TargetFile(path: whole.path, data: try Data(contentsOf: fixture.writer.blobURL(of: whole)), custom: custom))
        try fixture.writer.writeMetadata()

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, whole.path)
        XCTAssertEqual(error?.check, .facts)
        XCTAssertTrue(error?.reason.contains("user_version") ?? false, error?.description ?? "")
    }
}
