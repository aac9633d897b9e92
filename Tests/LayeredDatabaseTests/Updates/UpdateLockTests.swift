import Foundation
import LayeredDatabase
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// An update installed while a connection of the process reads the database in effect leaves
/// that connection's SQLite lock in place: the updater hashes and copies the file through
/// SQLite's VFS, never a descriptor of its own (closing one would drop every POSIX lock the
/// process holds on the file, the reader's SHARED lock included). Another process (the sqlite3
/// shell, ``WriterProbe``) is refused the right to write it until the read ends.
///
/// ``LayeredDatabase`` itself attaches the database in effect immutable (no lock); the reader
/// here is one of the app's own (or a publish's diff, which reads the base it proves a patch on).
final class UpdateLockTests: XCTestCase {
    func testInstallingAPatchKeepsAReadersLockOnTheDatabaseInEffect() throws {
        let fixture = try UpdateFixture.make(self)
        let v8 = try fixture.version("v8.sqlite", "DELETE FROM food WHERE pk = 2; PRAGMA user_version = 8;")
        let patch = fixture.directory.appendingPathComponent("7-8.sql").path
        try BuiltPatch.write(old: fixture.bundled, new: v8, to: patch)
        // A connection of the app's own in a read of the bundled database (the one in effect).
        let reader = try Connection(uri: SQLiteURI.fileURI(path: fixture.bundled, parameters: [("mode", "ro")]))
        defer { reader.close() }
        try reader.execute("BEGIN")
        _ = try reader.scalar("SELECT count(*) FROM food")
        XCTAssertFalse(try WriterProbe.canWrite(fixture.bundled), "the read holds SQLite's SHARED lock")

        // Hashing the database in effect (what a feed client asks first).
        XCTAssertTrue(
            try fixture.installer.contentIdentitiesInEffect().contains(try BuiltPatch.sha256(fixture.bundled)))
        XCTAssertFalse(
            try WriterProbe.canWrite(fixture.bundled), "hashing the database in effect dropped the reader's lock")

        // Copying it to apply the patch.
        XCTAssertEqual(try fixture.installer.installPatch(at: patch, sha256: BuiltPatch.sha256(patch)).userVersion, 8)
        XCTAssertFalse(
            try WriterProbe.canWrite(fixture.bundled), "copying the database in effect dropped the reader's lock")
        XCTAssertEqual(try DatabaseContent.dump(fixture.installed), try DatabaseContent.dump(v8))

        try reader.execute("COMMIT")
        XCTAssertTrue(try WriterProbe.canWrite(fixture.bundled), "the lock ends with the read")
    }
}
