import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// Installing updates, and which database is in effect afterwards.
final class DatabaseUpdaterTests: LayeredDatabaseTestCase {
    func testInstalledNewerDatabaseIsAttachedAndStaysReadOnly() throws {
        let fixture = try UpdateFixture.make(self)
        let v8 = try fixture.version(
            "v8.sqlite", "INSERT INTO food VALUES (4, 30, 'Kiwi', NULL); PRAGMA user_version = 8;")
        XCTAssertEqual(try fixture.attachedVersion(), 7)
        XCTAssertEqual(try fixture.updater.installDatabase(at: v8).userVersion, 8)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.updates).sorted(), UpdateFixture.installedFiles)
        let database = try LayeredDatabase(
            userPath: fixture.user, bundledPath: fixture.bundled, updatesDirectory: fixture.updates)
        XCTAssertEqual(database.databaseInEffect.path, fixture.installed)
        XCTAssertEqual(database.databaseInEffect.userVersion, 8)
        XCTAssertTrue(database.databaseInEffect.isInstalledUpdate)
        XCTAssertEqual(try database.query("SELECT name FROM bundle.food WHERE pk = 4").first?[0], "Kiwi")
        XCTAssertThrowsError(try database.execute("DELETE FROM bundle.food")) {
            XCTAssertTrue(($0 as? SQLiteError)?.isReadOnly ?? false, "\($0)")
        }
        XCTAssertEqual(try sqlite3(fixture.user, "SELECT name FROM user_food"), "mine\n")
    }

    func testBundledDataWinsTiesAndWhenAnAppUpdateShipsNewerData() throws {
        let fixture = try UpdateFixture.make(self)
        try fixture.updater.installDatabase(at: try fixture.version("v9.sqlite", "PRAGMA user_version = 9;"))
        XCTAssertEqual(try fixture.attachedVersion(), 9)
        try sqlite3(fixture.bundled, "PRAGMA user_version = 9;") // an app update ships version 9 too: a tie
        XCTAssertFalse(try fixture.updater.databaseInEffect().isInstalledUpdate)
        try sqlite3(fixture.bundled, "PRAGMA user_version = 10;")
        XCTAssertEqual(try fixture.updater.databaseInEffect().path, fixture.bundled)
        XCTAssertEqual(try fixture.attachedVersion(), 10)
    }

    func testPatchIsAppliedToTheDatabaseInEffectInOneTransaction() throws {
        let fixture = try UpdateFixture.make(self)
        let v8 = try fixture.version(
            "v8.sqlite",
            "UPDATE food SET name = 'Green apple', desc = 256.09000000000003 WHERE pk = 1; DELETE FROM food WHERE pk = 2; PRAGMA user_version = 8;"
        )
        let v9 = try fixture.version(
            "v9.sqlite",
            "UPDATE food SET name = 'Green apple', desc = 256.09000000000003 WHERE pk = 1; DELETE FROM food WHERE pk = 2; INSERT INTO food VALUES (5, 1, 'Fig', x'00'); PRAGMA user_version = 9;"
        )
        let patch78 = fixture.directory.appendingPathComponent("7-8.sql").path,
            patch89 = fixture.directory.appendingPathComponent("8-9.sql").path
        try BuiltPatch.write(old: fixture.bundled, new: v8, to: patch78)
        try BuiltPatch.write(old: v8, new: v9, to: patch89)
        XCTAssertEqual(try fixture.updater.installPatch(at: patch78).userVersion, 8)
        XCTAssertEqual(try fixture.updater.installPatch(at: patch89, sha256: BuiltPatch.sha256(patch89)).userVersion, 9)
        XCTAssertEqual(try DatabaseContent.dump(fixture.installed), try DatabaseContent.dump(v9))
    }

    func testStaleTemporariesOfAKilledInstallAreRemovedByTheNextOne() throws {
        let fixture = try UpdateFixture.make(self)
        try FileManager.default.createDirectory(atPath: fixture.updates, withIntermediateDirectories: true)
        // What kill -9 leaves: the temporary, its journal and its sidecar lock, the install
        // lock, a temporary of an earlier version (no sidecar), a half-written content record.
        for junk in [
            ".database.sqlite.update-AbC123", ".database.sqlite.update-AbC123-journal",
            ".database.sqlite.update-AbC123.lock", ".database.sqlite.lock", ".database.sqlite.update-Old123",
            "..database.sqlite.content.tmp-Rec123",
        ] {
            XCTAssertTrue(
                FileManager.default.createFile(atPath: fixture.updates + "/" + junk, contents: Data("half".utf8)))
        }
        try fixture.updater.installDatabase(at: try fixture.version("v8.sqlite", "PRAGMA user_version = 8;"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.updates).sorted(), UpdateFixture.installedFiles)
    }

    /// The install lock is a file of its own (never a database SQLite opens): an install waits
    /// while another process holds it.
    func testAnInstallWaitsForTheLockAnotherProcessHolds() throws {
        let fixture = try UpdateFixture.make(self)
        try FileManager.default.createDirectory(atPath: fixture.updates, withIntermediateDirectories: true)
        let ready = fixture.directory.appendingPathComponent("holder-ready").path
        let holder = try ProcessRunner.start(
            try Oracle.python3.path(),
            [
                "-c",
                """
                import fcntl, sys, time
                f = open(sys.argv[1], "a")
                fcntl.flock(f, fcntl.LOCK_EX)
                open(sys.argv[2], "w").close()
                time.sleep(120)
                """, fixture.updates + "/.database.sqlite.lock", ready,
            ])
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready), holder.isRunning, Date() < deadline { usleep(10_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: ready), "the python3 holder took the lock")

        let v8 = try fixture.version("v8.sqlite", "PRAGMA user_version = 8;")
        let finished = DispatchSemaphore(value: 0)
        let results = ResultsBox()
        let updater = fixture.updater
        Thread.detachNewThread {
            do { results.add(try updater.installDatabase(at: v8).userVersion) } catch { results.add(error) }
            finished.signal()
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 0.5), .timedOut, "the install waits for the lock")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.installed))
        kill(holder.processIdentifier, SIGKILL) // the holder dies: its lock is free
        holder.waitUntilExit()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(results.installed, [8], "\(results.errors)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.updates).sorted(), UpdateFixture.installedFiles)
    }

    func testConcurrentInstallsEndConsistent() throws {
        let fixture = try UpdateFixture.make(self)
        let versions = try (8...13).map {
            try fixture.version("v\($0).sqlite", "INSERT INTO version VALUES (\($0)); PRAGMA user_version = \($0);")
        }
        let results = ResultsBox()
        DispatchQueue.concurrentPerform(iterations: versions.count) { index in
            do { results.add(try fixture.updater.installDatabase(at: versions[index]).userVersion) } catch {
                results.add(error)
            }
        }
        XCTAssertTrue(results.installed.contains(13), "the newest is installed whatever the order")
        for error in results.errors {
            guard case .notNewer? = error as? LayeredDatabaseError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.updates).sorted(), UpdateFixture.installedFiles)
        XCTAssertEqual(try sqlite3(fixture.installed, "PRAGMA quick_check; SELECT max(ver) FROM version;"), "ok\n13\n")
    }
}

/// Thread-safe collection of concurrent install results.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var installed: [Int64] = []
    private(set) var errors: [Error] = []
    func add(_ version: Int64) { lock.lock(); installed.append(version); lock.unlock() }
    func add(_ error: Error) { lock.lock(); errors.append(error); lock.unlock() }
}

/// Attaching the database in effect to a handle another library opened.
final class ShippedDatabaseAttachmentTests: LayeredDatabaseTestCase {
    func testAttachesTheNewerUpdateReadOnlyToABorrowedHandle() throws {
        let fixture = try UpdateFixture.make(self)
        try fixture.updater.installDatabase(
            at: try fixture.version(
                "v8.sqlite", "INSERT INTO food VALUES (9, 0, 'Plum', NULL); PRAGMA user_version = 8;"))
        let owner = try Connection(path: fixture.user)
        let inEffect = try ShippedDatabaseAttachment.attach(
            to: try owner.openHandle(), bundledPath: fixture.bundled,
            updatesDirectory: fixture.updates, as: "shipped")
        XCTAssertTrue(inEffect.isInstalledUpdate)
        XCTAssertEqual(try owner.scalar("SELECT name FROM shipped.food WHERE pk = 9"), "Plum")
        XCTAssertThrowsError(try owner.execute("DELETE FROM shipped.food")) {
            XCTAssertTrue(($0 as? SQLiteError)?.isReadOnly ?? false, "\($0)")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.updates).sorted(), UpdateFixture.installedFiles)
        let borrowed = Connection(borrowing: try owner.openHandle())
        borrowed.close()
        XCTAssertEqual(
            try owner.scalar("SELECT count(*) FROM shipped.food"), 4,
            "closing a borrowing wrapper leaves the handle open")
    }
}

/// A downloaded database in WAL mode is installed in rollback-journal mode (a WAL file could
/// not be read immutable from a read-only place), leaving nothing but it in the directory.
final class UpdateJournalModeTests: LayeredDatabaseTestCase {
    func testWALDownloadIsInstalledInRollbackJournalMode() throws {
        let fixture = try UpdateFixture.make(self)
        let wal = try fixture.version(
            "wal.sqlite",
            "PRAGMA journal_mode = WAL; INSERT INTO food VALUES (8, 1, 'Date', NULL); PRAGMA user_version = 8;")
        XCTAssertEqual(
            Array(FileManager.default.contents(atPath: wal)!.prefix(20).suffix(2)), [2, 2], "the download is WAL")
        XCTAssertEqual(try fixture.updater.installDatabase(at: wal).userVersion, 8)
        XCTAssertEqual(Array(FileManager.default.contents(atPath: fixture.installed)!.prefix(20).suffix(2)), [1, 1])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fixture.updates).sorted(), UpdateFixture.installedFiles)
        XCTAssertEqual(try sqlite3(fixture.installed, "SELECT name FROM food WHERE pk = 8;"), "Date\n")
    }
}

/// Removing the installed update: the bundled database is in effect again.
final class InstalledUpdateRemovalTests: LayeredDatabaseTestCase {
    func testRemovingTheInstalledUpdatePutsTheBundledDatabaseInEffect() throws {
        let fixture = try UpdateFixture.make(self)
        XCTAssertFalse(try fixture.updater.removeInstalledUpdate(), "nothing installed yet")
        try fixture.updater.installDatabase(at: try fixture.version("v9.sqlite", "PRAGMA user_version = 9;"))
        XCTAssertEqual(try fixture.attachedVersion(), 9)
        XCTAssertTrue(try fixture.updater.removeInstalledUpdate())
        XCTAssertEqual(try fixture.updater.databaseInEffect().path, fixture.bundled)
        XCTAssertEqual(try fixture.attachedVersion(), 7)
        XCTAssertFalse(try listing(URL(fileURLWithPath: fixture.updates)).contains { !$0.hasSuffix(".lock") })
        XCTAssertFalse(try fixture.updater.removeInstalledUpdate())
        // A lower user_version installs again once the higher one is gone.
        XCTAssertEqual(
            try fixture.updater.installDatabase(at: try fixture.version("v8.sqlite", "PRAGMA user_version = 8;"))
                .userVersion, 8)
    }
}
