import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// The GRDB recipe without any process-wide switch: GRDB opens its connections with
/// `sqlite3_open_v2(path, …, READWRITE | CREATE | NOMUTEX)`, no `SQLITE_OPEN_URI`; so does this
/// test, then attaches the shipped data with ``ShippedDatabaseAttachment`` as
/// `Configuration.prepareDatabase` would.
final class ForeignConnectionAttachTests: LayeredDatabaseTestCase {
    private static let childVariable = "SHIPYARD_NO_URI_CHILD"

    /// This system's SQLite is built with SQLITE_USE_URI, as Apple's is: the attachment is
    /// read-only and immutable with no `sqlite3_config` call.
    func testAttachesReadOnlyToAHandleOpenedWithoutTheURIFlag() throws {
        let fixture = try UpdateFixture.make(self)
        let foreign = try ForeignConnection(path: fixture.user), handle = foreign.handle
        defer { withExtendedLifetime(foreign) {} } // closes the handle when released
        let inEffect = try ShippedDatabaseAttachment.attach(
            to: handle, bundledPath: fixture.bundled, updatesDirectory: fixture.updates)
        XCTAssertFalse(inEffect.isInstalledUpdate)
        let connection = Connection(borrowing: handle)
        XCTAssertEqual(try connection.scalar("SELECT name FROM bundle.food WHERE pk = 1"), "Apple")
        XCTAssertThrowsError(try connection.execute("DELETE FROM bundle.food")) {
            XCTAssertEqual(($0 as? SQLiteError)?.resultCode, .SQLITE_READONLY, "\($0)")
        }
    }

    /// Where SQLite reads no URIs on such a handle (a build without SQLITE_USE_URI, emulated
    /// in a child process before SQLite initializes), the attach fails saying why, attaches
    /// nothing and creates no file: never a writable attachment.
    func testWithoutURIFilenamesTheAttachFailsAndAttachesNothing() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] == nil else { return }
        let result = try ProcessRunner.run(
            CommandLine.arguments[0], ["LayeredDatabaseTests.ForeignConnectionAttachTests/testChild"],
            environment: [Self.childVariable: "1", AppleSQLiteDefaults.environmentVariable: "0"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        XCTAssertTrue(
            (result.stdoutText + result.stderrText).contains("NO-URI-CHILD-OK"), result.stdoutText + result.stderrText)
    }

    /// Runs only in the child process (a no-op otherwise).
    func testChild() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else { return }
        XCTAssertTrue(SQLiteLibrary.setURIFilenames(false), "must run before SQLite initializes")
        let fixture = try UpdateFixture.make(self)
        let foreign = try ForeignConnection(path: fixture.user), handle = foreign.handle
        defer { withExtendedLifetime(foreign) {} } // closes the handle when released
        let before = try listing(fixture.directory)
        XCTAssertThrowsError(
            try ShippedDatabaseAttachment.attach(to: handle, bundledPath: fixture.bundled, updatesDirectory: nil)
        ) {
            guard case .bundledDatabaseUnreadable(fixture.bundled, let reason)? = $0 as? LayeredDatabaseError else {
                return XCTFail("\($0)")
            }
            XCTAssertTrue(reason.contains("does not interpret URI filenames"), reason)
        }
        XCTAssertEqual(try Connection(borrowing: handle).query("PRAGMA database_list").count, 1, "nothing attached")
        XCTAssertEqual(try listing(fixture.directory), before, "no file created")
        print("NO-URI-CHILD-OK")
    }
}
