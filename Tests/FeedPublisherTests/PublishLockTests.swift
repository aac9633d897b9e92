import FeedClient
@testable import FeedPublisher
import Foundation
import SQLiteCore
import TUF
import ShipyardTestSupport
import XCTest

/// A publish reads the release's bytes (its SHA-256, the whole-file target it compresses) through
/// SQLite's VFS, never a descriptor of its own: closing one drops every POSIX lock the process
/// holds on the file, and the publish compresses the release while its own diffs hold SQLite's
/// SHARED lock on it (side by side, ``ConcurrentWork``), as any other connection of the process
/// may. Here a connection of the test holds that lock through whole publishes; another process
/// (the sqlite3 shell, ``WriterProbe``) must be refused the right to write the file throughout.
final class PublishLockTests: XCTestCase {
    /// A connection of this process in a read of `path`: SQLite's SHARED lock on it.
    private func reading(_ path: String) throws -> Connection {
        let connection = try Connection(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro")]))
        try connection.execute("BEGIN")
        _ = try connection.scalar("PRAGMA main.schema_version")
        XCTAssertFalse(try WriterProbe.canWrite(path), "a read holds SQLite's SHARED lock")
        return connection
    }

    func testPublishingKeepsTheLocksOfTheProcessOnTheRelease() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let v1 = try fixture.release("v1", version: 1)
        let v2 = try fixture.release("v2", version: 2, changedEvery: 40)

        let base = try reading(v1)
        let first = try fixture.publish(v1, options: PublishOptions(baseOnly: true))
        XCTAssertTrue(first.isBaseOnly)
        XCTAssertFalse(try WriterProbe.canWrite(v1), "publishing a base release dropped the lock on it")
        try base.execute("COMMIT")

        let release = try reading(v2)
        let second = try fixture.publish(v2, options: PublishOptions(compression: .zlib))
        XCTAssertEqual(second.patches.count, 1, "a patch from the base was made")
        XCTAssertFalse(try WriterProbe.canWrite(v2), "publishing dropped the lock on the release")
        try release.execute("COMMIT")
        XCTAssertTrue(try WriterProbe.canWrite(v2), "the lock ends with the read")

        // The feed verifies: the base, the release, the patch between them.
        let verification = try fixture.verify()
        XCTAssertEqual(verification.releases.map(\.userVersion), [2])
        XCTAssertEqual(verification.bases.map(\.userVersion), [1])
        XCTAssertEqual(verification.patchCount, 1)
    }

    func testVerifyingAFeedForABundledDatabaseKeepsTheLockOnIt() async throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let v1 = try fixture.release("v1", version: 1)
        try fixture.publish(v1)
        let bundled = try reading(v1)
        let (_, check) = try await FeedVerifier(
            feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: fixture.rootData,
            fetcher: FileFetcher()
        ).verify(bundled: v1)
        XCTAssertEqual(check.bundled.userVersion, 1)
        XCTAssertFalse(try WriterProbe.canWrite(v1), "hashing the bundled database dropped the lock on it")
        try bundled.execute("COMMIT")
    }

    func testEncodingATargetKeepsTheLockOnItsSource() throws {
        let fixture = try FeedFixture(self)
        let database = try fixture.release("v1", version: 1)
        let reader = try reading(database)
        for compression in TargetCompression.allCases {
            let encoded = try TargetBlob.encode(
                database, to: fixture.directory.url("v1.\(compression.fileExtension)").path,
                encoding: TargetEncoding(compression: compression))
            XCTAssertEqual(encoded.uncompressedSHA256, try BuiltHash.sha256(database))
            XCTAssertFalse(try WriterProbe.canWrite(database), "compressing \(compression) dropped the lock")
        }
        try reader.execute("COMMIT")
    }
}

/// python3's hashlib (an oracle).
private enum BuiltHash {
    static func sha256(_ path: String) throws -> String {
        try Oracle.python3.output([
            "-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", path,
        ])
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
