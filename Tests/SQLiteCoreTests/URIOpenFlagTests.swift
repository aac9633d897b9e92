import Foundation
import ShipyardTestSupport
import SQLiteCore
import XCTest

/// `Connection` opens with `SQLITE_OPEN_URI`, so `file:` URIs (`mode=ro`, `immutable=1`) work
/// in ATTACH whatever SQLite's build: Debian's is built with `SQLITE_USE_URI`, which would
/// hide the flag's absence, so the check runs in a child process where URI filenames are
/// switched off before SQLite initializes (as in a build without that option).
final class URIOpenFlagTests: XCTestCase {
    private static let childVariable = "SHIPYARD_URI_FLAG_CHILD"

    func testAttachHonoursURIsWithoutTheBuildOption() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] == nil else { return }
        let result = try ProcessRunner.run(
            CommandLine.arguments[0], ["SQLiteCoreTests.URIOpenFlagTests/testChild"],
            environment: [Self.childVariable: "1"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        XCTAssertTrue(
            result.stdoutText.contains("URI-CHILD-OK") || result.stderrText.contains("URI-CHILD-OK"),
            result.stdoutText + result.stderrText)
    }

    /// Runs only in the child process (a no-op otherwise).
    func testChild() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else { return }
        XCTAssertTrue(SQLiteLibrary.setURIFilenames(false), "must run before SQLite initializes")
        let dir = try TemporaryDirectory("uri flag", removedAfter: self)
        let shipped = dir.url("shipped db.sqlite").path
        let setup = try Connection(path: shipped, create: true)
        try setup.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        setup.close()
        let connection = try Connection(path: dir.url("user.sqlite").path, create: true)
        let uri = SQLiteURI.fileURI(path: shipped, parameters: [("mode", "ro"), ("immutable", "1")])
        try connection.execute("ATTACH DATABASE ? AS shipped", [.text(uri)])
        XCTAssertEqual(try connection.scalar("SELECT x FROM shipped.t"), 1)
        XCTAssertTrue(connection.isReadOnly(schema: "shipped"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
            ["shipped db.sqlite", "user.sqlite"])
        print("URI-CHILD-OK")
    }
}
