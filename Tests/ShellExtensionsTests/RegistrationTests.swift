import CShellExtensions
import CSQLite
import XCTest

final class RegistrationTests: XCTestCase {
    func testRegistrationSucceedsOnAFreshConnection() throws {
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        var environment = shipyard_shell_environment(base_directory: nil, record_input: nil, context: nil)
        XCTAssertEqual(shipyard_register_shell_extensions(db, &environment), SQLITE_OK)
    }
}
