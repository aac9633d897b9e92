import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// A patch controls no transaction, however it writes the statement: SQLite's authorizer says
/// what is a transaction statement, not a reading of the text. Every writing of each statement
/// (comments of every kind, CRLF and CR line ends, case, whitespace, the optional words) is
/// tried: `BEGIN`, `COMMIT` and `END` are skipped (the patch installs whole, in the applier's
/// one transaction), `ROLLBACK`, `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` are refused with the
/// line and nothing changed, and the same words inside other syntax are only that syntax.
final class PatchTransactionControlTests: LayeredDatabaseTestCase {
    /// The ways a statement can be written: `K` is its text.
    static func writings(_ statement: String) -> [String] {
        let lower = statement.lowercased()
        let mixed = String(
            statement.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
        return [
            "\(statement);", "\(lower);", "\(mixed);", "  \t\(statement)  ;", "\(statement)\n;",
            "\(statement)\r\n;", "\r\n\(statement)\r\n;", "/* note */ \(statement);", "/* two\r\nlines */\(statement);",
            "/**/\(statement)/**/;", "-- note\r\n\(statement);",
            "-- note\r\(statement);\n-- the CR hid it from SQLite\n\(statement);",
            "--\r\n--\r\n\(statement);", "-- a; b\n\(statement); -- trailing\r\n", "\(statement) -- note\r\n;",
            "\u{0C}\(statement)\u{0C};", "/* nested /* */ \(statement);",
        ]
    }

    /// Statements that end, start or undo a transaction or savepoint.
    static let skipped = [
        "BEGIN", "BEGIN TRANSACTION", "BEGIN DEFERRED", "BEGIN IMMEDIATE TRANSACTION", "BEGIN EXCLUSIVE", "COMMIT",
        "COMMIT TRANSACTION", "END", "END TRANSACTION",
    ]
    static let refused = [
        "ROLLBACK", "ROLLBACK TRANSACTION", "SAVEPOINT sp", "SAVEPOINT \"sp\"", "RELEASE sp", "RELEASE SAVEPOINT sp",
        "ROLLBACK TO sp", "ROLLBACK TRANSACTION TO SAVEPOINT sp",
    ]

    private func patch(_ fixture: UpdateFixture, _ name: String, around middle: String) throws -> String {
        let path = fixture.directory.appendingPathComponent(name).path
        let text =
            "BEGIN TRANSACTION;\nUPDATE food SET name = 'Apricot' WHERE pk = 1;\n\(middle)\n"
            + "INSERT INTO food VALUES (9, 10, 'Fig', NULL);\nPRAGMA user_version = 9;\nCOMMIT;\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTransactionStartsAndEndsAreSkippedHoweverWritten() throws {
        let fixture = try UpdateFixture.make(self)
        var count = 0
        for statement in Self.skipped {
            for (index, writing) in Self.writings(statement).enumerated() {
                try? FileManager.default.removeItem(atPath: fixture.updates)
                let path = try patch(fixture, "skip-\(count).sql", around: writing)
                count += 1
                let outcome = try fixture.updater.installPatch(at: path)
                XCTAssertEqual(outcome.userVersion, 9, "\(statement) #\(index): \(writing.debugDescription)")
                XCTAssertEqual(
                    try sqlite3(fixture.installed, "SELECT name FROM food WHERE pk IN (1, 9) ORDER BY pk"),
                    "Apricot\nFig\n", "\(statement) #\(index)")
            }
        }
        XCTAssertGreaterThan(count, 100)
    }

    func testRollbacksAndSavepointsAreRefusedHoweverWritten() throws {
        let fixture = try UpdateFixture.make(self)
        try fixture.updater.installDatabase(at: try fixture.version("v8.sqlite", "PRAGMA user_version = 8;"))
        var count = 0
        for statement in Self.refused {
            for (index, writing) in Self.writings(statement).enumerated() {
                let before = fixture.snapshot()
                let path = try patch(fixture, "refused-\(count).sql", around: writing)
                count += 1
                XCTAssertThrowsError(try fixture.updater.installPatch(at: path)) { error in
                    guard case .patchRefused(let file, let line, let reason)? = error as? LayeredDatabaseError else {
                        return XCTFail("\(statement) #\(index): \(error)")
                    }
                    XCTAssertEqual(file, path)
                    XCTAssertTrue((3...6).contains(line), "\(statement) #\(index): line \(line)")
                    XCTAssertTrue(reason.contains("may not control"), reason)
                }
                XCTAssertEqual(fixture.snapshot(), before, "\(statement) #\(index): nothing changed")
            }
        }
        XCTAssertEqual(try fixture.attachedVersion(), 8)
        XCTAssertGreaterThan(count, 100)
    }

    /// The words inside other syntax: a trigger body, identifiers, strings, comments.
    func testTheSameWordsInOtherSyntaxAreThatSyntax() throws {
        let fixture = try UpdateFixture.make(self)
        let middle = """
            CREATE TABLE "commit"("begin" TEXT, "rollback" TEXT, savepoint TEXT, release TEXT, "end" TEXT);
            CREATE TRIGGER keep AFTER INSERT ON "commit" BEGIN INSERT INTO version VALUES (42); END;
            INSERT INTO "commit" VALUES ('COMMIT;', 'ROLLBACK;', 'SAVEPOINT x;', 'RELEASE x;', 'END;');
            SELECT 'ROLLBACK' AS "rollback", [savepoint] FROM "commit" /* ROLLBACK; */ ; -- ROLLBACK;
            """
        let path = try patch(fixture, "syntax.sql", around: middle)
        XCTAssertEqual(try fixture.updater.installPatch(at: path).userVersion, 9)
        XCTAssertEqual(
            try sqlite3(fixture.installed, "SELECT * FROM \"commit\""),
            "COMMIT;|ROLLBACK;|SAVEPOINT x;|RELEASE x;|END;\n")
        XCTAssertEqual(try sqlite3(fixture.installed, "SELECT ver FROM version ORDER BY ver"), "2\n42\n")
    }

    /// A statement of a patch that fails after a hidden COMMIT leaves nothing: the COMMIT was
    /// skipped, so the statements before it are rolled back with the rest.
    func testAHiddenCommitDoesNotSplitThePatch() throws {
        let fixture = try UpdateFixture.make(self)
        let path = fixture.directory.appendingPathComponent("split.sql").path
        let text =
            "UPDATE food SET name = 'Apricot' WHERE pk = 1;\n-- note\r\nCOMMIT;\n"
            + "PRAGMA user_version = 9;\nINSERT INTO food VALUES (1, 0, 'duplicate', NULL);\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let before = fixture.snapshot()
        XCTAssertThrowsError(try fixture.updater.installPatch(at: path)) { error in
            guard case .patchFailed(_, 5, let message)? = error as? LayeredDatabaseError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("UNIQUE"), message)
        }
        XCTAssertEqual(fixture.snapshot(), before)
    }

    func testVacuumIsRefusedHoweverWritten() throws {
        let fixture = try UpdateFixture.make(self)
        for writing in Self.writings("VACUUM") + Self.writings("VACUUM INTO 'stolen.sqlite'") {
            let before = fixture.snapshot()
            let path = try patch(fixture, "vacuum.sql", around: "-- note\r\nCOMMIT;\n" + writing)
            XCTAssertThrowsError(try fixture.updater.installPatch(at: path), writing.debugDescription) { error in
                guard case .patchRefused(_, _, let reason)? = error as? LayeredDatabaseError else {
                    return XCTFail("\(writing.debugDescription): \(error)")
                }
                XCTAssertTrue(reason.contains("VACUUM") || reason.contains("ATTACH"), reason)
            }
            XCTAssertEqual(fixture.snapshot(), before)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("stolen.sqlite").path))
        }
    }

    func testANULByteIsRefused() throws {
        let fixture = try UpdateFixture.make(self)
        let path = fixture.directory.appendingPathComponent("nul.sql").path
        try Data("UPDATE food SET name = 'x' WHERE pk = 1;\nPRAGMA user_version = 9;\u{0}\nCOMMIT;\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try fixture.updater.installPatch(at: path)) { error in
            guard case .patchRefused(_, 2, let reason)? = error as? LayeredDatabaseError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(reason.contains("NUL"), reason)
        }
    }
}
