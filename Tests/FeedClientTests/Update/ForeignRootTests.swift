import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// An app given another feed's root is told so in words: the feed's documents are not signed by
/// the keys of the bundled root, and the feed's own root names other keys, each named as
/// `dbgen keys generate` prints it. A feed whose own root is the bundled one, with a timestamp
/// signed by a stranger, is an attack and is not explained away.
final class ForeignRootTests: XCTestCase {
    func testAnotherFeedsRootIsRefusedInWordsNamingBothKeys() async throws {
        let ours = try FeedFixture(removedAfter: self)
        let theirs = try FeedFixture(removedAfter: self)
        try theirs.writer.publish(try theirs.release(2))

        let error = try await theirs.refused(try theirs.updater(root: ours.writer.bundledRoot))
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .signature)
        let url = try theirs.feedURL.absoluteString
        XCTAssertEqual(
            error?.reason,
            "timestamp.json at \(url)timestamp.json is not signed by the keys of the bundled root.json (root version 1, "
                + "key \(ours.writer.timestampKey.publicKey.publicValue)), and this feed's 1.root.json names key "
                + "\(theirs.writer.timestampKey.publicKey.publicValue) instead: is the bundled root.json this feed's root? "
                + "(signatures: 0 valid of the 1 required from timestamp's keys (key "
                + "\(String(try theirs.writer.timestampKey.publicKey.keyID.prefix(16))) is not a key of timestamp))")
        XCTAssertEqual(try theirs.inEffect().userVersion, 1)
    }

    func testAStrangersTimestampOnTheBundledRootsFeedIsNotExplainedAway() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        try fixture.writer.writeTimestamp(signedBy: [Ed25519SigningKey()])
        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.check, .signature)
        XCTAssertFalse(error?.reason.contains("this feed's root?") ?? true, error?.description ?? "")
    }
}
