import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// Every bad input: an error that names the file and the reason, and the updates directory,
/// the bundled file and the user database byte-identical before and after.
final class UpdateBadInputTests: LayeredDatabaseTestCase {
    private var fixture: UpdateFixture!

    override func setUpWithError() throws {
        fixture = try UpdateFixture.make(self)
        // Something is already installed, so "as it was" means more than "empty".
        try fixture.installer.installDatabase(at: try fixture.version("v8.sqlite", "PRAGMA user_version = 8;"))
    }

    private func assertRefused(
        _ path: String, file: StaticString = #filePath, line: UInt = #line,
        _ install: (UpdateInstaller) throws -> UpdateInstaller.Outcome,
        _ check: (LayeredDatabaseError) -> Bool
    ) {
        let before = fixture.snapshot()
        XCTAssertThrowsError(try install(fixture.installer), file: file, line: line) { error in
            guard let error = error as? LayeredDatabaseError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(check(error), "\(error)", file: file, line: line)
            XCTAssertEqual(error.path, path, "names \(path): \(error)", file: file, line: line)
        }
        XCTAssertEqual(fixture.snapshot(), before, "nothing changed", file: file, line: line)
        XCTAssertEqual(try? fixture.attachedVersion(), 8, file: file, line: line)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = fixture.directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testBadDatabaseFiles() throws {
        let missing = fixture.directory.appendingPathComponent("missing.sqlite").path
        assertRefused(missing, { try $0.installDatabase(at: missing) }) {
            if case .fileNotFound = $0 { return true }; return false
        }
        let text = try write("text.sqlite", String(repeating: "not a database ", count: 500))
        assertRefused(text, { try $0.installDatabase(at: text) }) {
            if case .notADatabase = $0 { return true }; return false
        }
        let empty = try write("empty.sqlite", "")
        assertRefused(empty, { try $0.installDatabase(at: empty) }) {
            if case .notADatabase = $0 { return true }; return false
        }
        let v9 = try fixture.version(
            "v9.sqlite",
            "CREATE TABLE big(x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO big SELECT randomblob(100) FROM n; PRAGMA user_version = 9;"
        )
        let truncated = fixture.directory.appendingPathComponent("truncated.sqlite").path
        try FileManager.default.contents(atPath: v9)!.prefix(100_000).write(to: URL(fileURLWithPath: truncated))
        assertRefused(truncated, { try $0.installDatabase(at: truncated) }) {
            if case .notADatabase = $0 { return true }; return false
        }
        assertRefused(v9, { try $0.installDatabase(at: v9, sha256: String(repeating: "ab", count: 32)) }) {
            if case .checksumMismatch = $0 { return true }; return false
        }
        // Other content.
        let old = try fixture.version("v8b.sqlite", "INSERT INTO version VALUES (8); PRAGMA user_version = 8;")
        assertRefused(old, { try $0.installDatabase(at: old) }) {
            if case .notNewer(_, 8, 8, _) = $0 { return true }; return false
        }
    }

    func testCorruptPageIsCaughtByQuickCheck() throws {
        let v9 = try fixture.version(
            "corrupt.sqlite",
            "CREATE TABLE t(x); CREATE INDEX ti ON t(x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i FROM n; PRAGMA user_version = 9;"
        )
        var data = FileManager.default.contents(atPath: v9)!
        for offset in stride(from: data.count - 4096 * 3 + 200, to: data.count - 4096 * 3 + 600, by: 1) {
            data[offset] = 0x5A
        }
        try data.write(to: URL(fileURLWithPath: v9))
        assertRefused(v9, { try $0.installDatabase(at: v9) }) {
            switch $0 {
            case .integrityCheckFailed, .notADatabase: return true;
            default: return false
            }
        }
    }

    func testBadPatches() throws {
        let failing = try write(
            "failing.sql",
            "BEGIN TRANSACTION;\nUPDATE food SET name = 'x' WHERE pk = 1;\nINSERT INTO food VALUES (1, 0, 'duplicate', NULL);\nPRAGMA user_version = 9;\nCOMMIT;\n"
        )
        assertRefused(failing, { try $0.installPatch(at: failing) }) {
            if case .patchFailed(_, 3, let message) = $0 { return message.contains("UNIQUE") }; return false
        }
        let notNewer = try write("same.sql", "UPDATE food SET name = 'x' WHERE pk = 1;\n")
        assertRefused(notNewer, { try $0.installPatch(at: notNewer) }) {
            if case .notNewer = $0 { return true }; return false
        }
        let escapes = [
            (
                "attach.sql",
                "PRAGMA user_version = 9;\nATTACH DATABASE 'elsewhere.sqlite' AS other;\nCREATE TABLE other.t(x);\n"
            ),
            ("vacuum.sql", "PRAGMA user_version = 9;\nVACUUM INTO 'copy.sqlite';\n"),
            ("load.sql", "PRAGMA user_version = 9;\nSELECT load_extension('/tmp/evil.so');\n"),
            ("pragma.sql", "PRAGMA user_version = 9;\nPRAGMA journal_mode = WAL;\n"),
            ("rollback.sql", "PRAGMA user_version = 9;\nROLLBACK;\n"),
        ]
        for (name, text) in escapes {
            let patch = try write(name, text)
            assertRefused(patch, { try $0.installPatch(at: patch) }) {
                if case .patchRefused(_, 2, _) = $0 { return true }; return false
            }
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("elsewhere.sqlite").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("copy.sqlite").path))
        let good = try write("good.sql", "UPDATE food SET name = 'x' WHERE pk = 1;\nPRAGMA user_version = 9;\n")
        assertRefused(good, { try $0.installPatch(at: good, sha256: String(repeating: "0", count: 64)) }) {
            if case .checksumMismatch = $0 { return true }; return false
        }
    }
}
