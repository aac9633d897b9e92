import Foundation
import LayeredDatabase
import XCTest

/// Several launches at once (threads with separate connections; the end-to-end suite does
/// the same with processes) all succeed and end with one intact user database.
final class ConcurrentFirstLaunchTests: LayeredDatabaseTestCase {
    func testFiveSimultaneousFirstLaunches() throws {
        for _ in 0..<5 { // a few rounds: the race is different each time
            let f = try Fixture.make(self)
            var migrator = UserDatabaseMigrator()
            migrator.registerMigration(version: 2, "launch log", sql: "CREATE TABLE launch (n INTEGER)")
            let outcomes = LockedResults()
            DispatchQueue.concurrentPerform(iterations: 5) { n in
                do {
                    let db = try LayeredDatabase(
                        userPath: f.user, templatePath: f.template, bundledPath: f.bundled, migrator: migrator)
                    try db.execute("INSERT INTO launch VALUES (?)", [.integer(Int64(n))])
                    outcomes.append(.success(db.installOutcome))
                } catch {
                    outcomes.append(.failure("\(error)"))
                }
            }
            let results = outcomes.values
            XCTAssertEqual(results.count, 5)
            let created = results.filter { $0 == .success(.createdFromTemplate) }.count
            XCTAssertEqual(created, 1, "\(results)")
            XCTAssertEqual(results.filter { $0 == .success(.alreadyExisted) }.count, 4, "\(results)")
            XCTAssertEqual(try sqlite3(f.user, "PRAGMA integrity_check;"), "ok\n")
            XCTAssertEqual(try sqlite3(f.user, "SELECT count(*) FROM launch; PRAGMA user_version;"), "5\n2\n")
            XCTAssertEqual(
                try sqlite3(f.user, "SELECT * FROM user_food;"), try sqlite3(f.template, "SELECT * FROM user_food;"))
            XCTAssertEqual(
                try listing(f.directory), ["database.sqlite", "user-template.sqlite", "user.sqlite"],
                "no temporary file left")
        }
    }

    func testInstallerNeverReplacesAFileThatAppearedMeanwhile() throws {
        let f = try Fixture.make(self)
        try sqlite3(f.user, "CREATE TABLE mine (a); INSERT INTO mine VALUES (1);")
        let before = bytes(f.user)
        XCTAssertEqual(try UserDatabaseInstaller.installIfMissing(at: f.user, template: f.template), .alreadyExisted)
        XCTAssertEqual(bytes(f.user), before)
    }
}

/// Outcomes gathered from concurrent threads.
private final class LockedResults: @unchecked Sendable {
    enum Result: Equatable {
        case success(UserDatabaseInstaller.Outcome)
        case failure(String)
    }
    private let lock = NSLock()
    private var stored: [Result] = []
    func append(_ result: Result) { lock.lock(); stored.append(result); lock.unlock() }
    var values: [Result] { lock.lock(); defer { lock.unlock() }; return stored }
}
