import Foundation
import XCTest

/// Writes through the zipfile table are refused and leave the disk untouched.
final class ZipRefusalTests: XCTestCase {
    private let refusal =
        "writing through the zipfile table is refused: dbgen writes nothing outside the database it builds"

    private func makeArchive() throws -> URL {
        let dir = try makeScratchDirectory(self)
        try runPython(
            """
            import zipfile
            with zipfile.ZipFile('a.zip', 'w') as z:
                z.writestr('one.txt', b'one')
                z.writestr('two.txt', b'two' * 40, zipfile.ZIP_DEFLATED)
            """, in: dir)
        return dir
    }

    func testInsertIntoNewArchiveIsRefusedAndCreatesNothing() throws {
        let dir = try makeScratchDirectory(self)
        let outcome = runOurs(
            "CREATE VIRTUAL TABLE t USING zipfile('new.zip'); INSERT INTO t(name, data) VALUES ('a.txt', 'data');",
            baseDirectory: dir.path)
        XCTAssertEqual(outcome.error, refusal)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testInsertIntoEponymousTableIsRefused() throws {
        let dir = try makeScratchDirectory(self)
        let outcome = runOurs("INSERT INTO zipfile(name, data) VALUES ('a.txt', 'data');", baseDirectory: dir.path)
        XCTAssertEqual(outcome.error, refusal)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testUpdateAndDeleteAreRefusedAndLeaveTheArchiveUnchanged() throws {
        let dir = try makeArchive()
        let archive = dir.appendingPathComponent("a.zip")
        let before = try Data(contentsOf: archive)
        let attributes = try FileManager.default.attributesOfItem(atPath: archive.path)
        for statement in [
            "DELETE FROM t;", "DELETE FROM t WHERE name = 'one.txt';", "UPDATE t SET mode = 33261;",
            "UPDATE t SET name = 'renamed';", "INSERT OR REPLACE INTO t(name, data) VALUES ('one.txt', 'x');",
            "DELETE FROM t WHERE 0;", "INSERT INTO t(name, data) SELECT 'a', 'b' WHERE 0;",
        ] {
            let outcome = runOurs(
                "CREATE VIRTUAL TABLE t USING zipfile('a.zip'); \(statement)", baseDirectory: dir.path)
            XCTAssertEqual(outcome.error, refusal, statement)
        }
        XCTAssertEqual(try Data(contentsOf: archive), before)
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date,
            attributes[.modificationDate] as? Date)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.zip"])
        XCTAssertEqual(runOurs("SELECT count(*) FROM zipfile('a.zip');", baseDirectory: dir.path).rows, ["2"])
    }
}
