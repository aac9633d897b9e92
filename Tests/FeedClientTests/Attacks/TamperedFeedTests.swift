import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// A blob or a document changed on the server (a compromised mirror): refused by its signed
/// hash or by its signature, nothing installed, nothing of it kept.
final class TamperedFeedTests: XCTestCase {
    func testATamperedBlobIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
        let blob = fixture.writer.blobURL(of: patch)
        var bytes = try Data(contentsOf: blob)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: blob)

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, patch.path)
        XCTAssertEqual(error?.check, .lengthOrHash)
        XCTAssertTrue(error?.reason.contains("SHA-256") ?? false, error?.description ?? "")
        XCTAssertEqual(fixture.staged, [], "the refused blob is not kept")
    }

    func testABlobLongerThanItsMetadataSaysIsCut() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
        let handle = try FileHandle(forWritingTo: fixture.writer.blobURL(of: patch))
        handle.seekToEndOfFile()
        handle.write(Data(count: 100_000))
        try handle.close()

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, patch.path)
        XCTAssertEqual(error?.check, .tooLarge)
    }

    func testATamperedTargetsDocumentIsRefusedBySnapshotsHash() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let name = "\(fixture.writer.versions["targets"]!).targets.json"
        let text = String(decoding: try fixture.writer.read(name), as: UTF8.self)
        try fixture.writer.write(Data(text.replacingOccurrences(of: "\"rollout\"", with: "\"rollouT\"").utf8), name)
        let tampered = String(decoding: try fixture.writer.read(name), as: UTF8.self)
        try fixture.writer.write(Data(tampered.replacingOccurrences(of: "zlib\"", with: "zlix\"").utf8), name)

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "targets.json")
        XCTAssertEqual(error?.check, .lengthOrHash)
    }

    func testATamperedTimestampIsRefusedByItsSignature() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let text = String(decoding: try fixture.writer.read("timestamp.json"), as: UTF8.self)
        let expires = Expiry.format(Date().addingTimeInterval(86_400 * 365))
        let tampered = text.replacingOccurrences(
            of: #""expires":"[^"]*""#, with: "\"expires\":\"\(expires)\"", options: .regularExpression)
        XCTAssertNotEqual(tampered, text)
        try fixture.writer.write(Data(tampered.utf8), "timestamp.json")

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .signature)
    }
}
