import Foundation
import ShipyardTestSupport
import XCTest

/// Apple's sqlite3.h has no session-extension section, so CSQLite's shim declares the functions
/// SQLiteSession calls for Apple platforms. No Apple header is on this machine: the shim is
/// compiled (clang, the toolchain's) against Debian's header with that section cut out, as
/// Apple's is, which proves the declarations are complete, and against the whole header with
/// both sets of declarations visible, which proves they match SQLite's own prototypes.
final class AppleSessionShimTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Calls every session function Shipyard uses, as SQLiteSession does.
    private static let program = """
        #include "\(root.appendingPathComponent("Sources/CSQLite/shim.h").path)"
        static int abort_all(void *ctx, int conflict, sqlite3_changeset_iter *it) { return SQLITE_CHANGESET_ABORT; }
        int use(sqlite3 *db) {
            sqlite3_session *session = 0;
            int size = 0; void *bytes = 0; char *message = 0;
            int rc = sqlite3session_create(db, "main", &session);
            rc |= sqlite3session_attach(session, "t");
            rc |= sqlite3session_diff(session, "old", "t", &message);
            rc |= sqlite3session_changeset(session, &size, &bytes);
            sqlite3session_delete(session);
            return rc | sqlite3changeset_apply(db, size, bytes, 0, abort_all, 0);
        }
        """

    private let sessionSection = (
        start: "#if !defined(__SQLITESESSION_H_) && defined(SQLITE_ENABLE_SESSION)",
        end: "#endif  /* !defined(__SQLITESESSION_H_) && defined(SQLITE_ENABLE_SESSION) */"
    )

    /// Compiles `program` with `header` as `<sqlite3.h>`; returns clang's status and output.
    private func compile(header: String, defines: [String]) throws -> (Int32, String) {
        let dir = try TemporaryDirectory("apple shim", removedAfter: self)
        try header.write(to: dir.url("sqlite3.h"), atomically: true, encoding: .utf8)
        try Self.program.write(to: dir.url("use.c"), atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            [
                "clang", "-fsyntax-only", "-std=gnu17", "-Werror",
                "-Wno-unused-function", "-I", dir.path,
            ]
                + defines.map { "-D" + $0 } + [dir.url("use.c").path])
        return (result.status, result.stderrText)
    }

    private func debianHeader() throws -> String {
        let header = try String(contentsOfFile: "/usr/include/sqlite3.h", encoding: .utf8)
        XCTAssertTrue(
            header.contains(sessionSection.start) && header.contains(sessionSection.end),
            "Debian's sqlite3.h changed shape: update this test")
        return header
    }

    func testShimDeclaresTheSessionAPIWhereTheHeaderHasNone() throws {
        let header = try debianHeader()
        let start = try XCTUnwrap(header.range(of: sessionSection.start))
        let end = try XCTUnwrap(header.range(of: sessionSection.end))
        let appleLike = String(header[..<start.lowerBound]) + String(header[end.upperBound...])
        // Without the shim's Apple declarations the program does not compile: the cut is real.
        let (bare, _) = try compile(header: appleLike, defines: [])
        XCTAssertNotEqual(bare, 0)
        let (status, output) = try compile(header: appleLike, defines: ["SHIPYARD_DECLARE_SESSION_API"])
        XCTAssertEqual(status, 0, output)
    }

    func testShimsDeclarationsMatchSQLitesOwn() throws {
        // Both declared at once: clang rejects any prototype or macro that differs.
        let both = try debianHeader().replacingOccurrences(of: "#define __SQLITESESSION_H_ 1", with: "")
        let (status, output) = try compile(header: both, defines: ["SHIPYARD_DECLARE_SESSION_API"])
        XCTAssertEqual(status, 0, output)
        XCTAssertFalse(output.contains("warning"), output)
    }
}
