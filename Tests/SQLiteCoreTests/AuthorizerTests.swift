import SQLiteCore
import XCTest

/// The authorizer: a refused action fails at prepare time; removing it allows it again.
final class AuthorizerTests: XCTestCase {
    func testDeniedActionFailsToPrepareAndRemovalRestoresIt() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a)")
        var seen: [AuthorizerRequest] = []
        try db.setAuthorizer { request in
            seen.append(request)
            return request.action == .insert ? .deny : .allow
        }
        XCTAssertThrowsError(try db.execute("INSERT INTO t VALUES (1)")) { error in
            XCTAssertEqual((error as? SQLiteError)?.resultCode, .SQLITE_AUTH)
        }
        XCTAssertTrue(seen.contains { $0.action == .insert && $0.argument1 == "t" && $0.database == "main" })
        try db.setAuthorizer(nil)
        try db.execute("INSERT INTO t VALUES (1)")
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM t"), 1)
    }

    func testIgnoredColumnReadsAsNull() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a, secret); INSERT INTO t VALUES (1, 'x')")
        try db.setAuthorizer { $0.action == .read && $0.argument2 == "secret" ? .ignore : .allow }
        XCTAssertEqual(try db.query("SELECT a, secret FROM t").first?.values, [1, nil])
    }
}
