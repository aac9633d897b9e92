@testable import DBGenKit
import ShipyardTestSupport
import XCTest

/// The journal-mode warning and the refusal of `VACUUM` of an attached database are decided
/// by what SQLite says about the statement (the authorizer's pragma question, the compiled
/// program), not by words in its text: a comment or string literal holding the word changes
/// nothing.
final class SQLStructureDecisionTests: XCTestCase {
    private let walWarning =
        "journal_mode=WAL is not kept: the output is sealed in rollback-journal mode, "
        + "because a WAL database cannot be opened read-only from an app bundle"

    /// Builds `schema` (with `other.db` beside it); the warnings, or the error.
    private func build(_ schema: String) throws -> Result<[Diagnostic], DBGenError> {
        let differential = try ShellScriptDifferential(removedAfter: self)
        _ = try Oracle.sqlite3.output([differential.directory.url("other.db").path, "CREATE TABLE o(x);"])
        let outcome = try differential.runDBGen(schema)
        return outcome.error.map { .failure($0) } ?? .success(outcome.warnings)
    }

    private func warnings(_ schema: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        switch try build(schema) {
        case .success(let warnings): return warnings.map { "\($0.location?.line ?? 0): \($0.message)" }
        case .failure(let error):
            XCTFail("\(error)", file: file, line: line)
            return []
        }
    }

    func testTheWALWarningFollowsTheJournalModePragma() throws {
        XCTAssertEqual(try warnings("CREATE TABLE t(a);\nPRAGMA journal_mode=WAL;\n"), ["2: \(walWarning)"])
        XCTAssertEqual(
            try warnings("CREATE TABLE t(a);\n  PRAGMA main.\"JOURNAL_MODE\" = wal;\n"),
            ["2: \(walWarning)"])
        XCTAssertEqual(
            try warnings("PRAGMA journal_mode=WAL;\nPRAGMA journal_mode;\n"),
            ["1: \(walWarning)", "2: \(walWarning)"])
        XCTAssertEqual(
            try warnings(
                "PRAGMA journal_mode=DELETE;\nPRAGMA journal_mode=wal;\n"
                    + "PRAGMA journal_mode=delete;\n"),
            ["2: \(walWarning)"])
    }

    /// What the text search took for the pragma.
    func testTheWordJournalModeInTextIsNoPragma() throws {
        XCTAssertEqual(try warnings("SELECT 'wal' AS journal_mode;\n"), [])
        XCTAssertEqual(try warnings("SELECT 'WAL' /* PRAGMA journal_mode=WAL */;\n"), [])
        XCTAssertEqual(
            try warnings(
                "CREATE TABLE journal_mode(m);\nINSERT INTO journal_mode VALUES ('wal');\n"
                    + "SELECT m FROM journal_mode;\n"), [])
    }

    func testVacuumOfAnAttachedDatabaseIsRefusedWhateverTheTextSays() throws {
        for schema in ["ATTACH 'other.db' AS o;\nVACUUM o;\n", "ATTACH 'other.db' AS o;\n/* x */ VaCuUm \"o\";\n"] {
            guard case .failure(let error) = try build(schema) else { return XCTFail(schema) }
            XCTAssertEqual(error.code, .refused, schema)
            XCTAssertEqual(
                error.message,
                "refused: VACUUM rewrites the attached database \"o\" "
                    + "(attached databases are read-only inputs)", schema)
            XCTAssertEqual(error.location?.line, 2, schema)
        }
        // The word in a value, a comment or a name, and VACUUM of the database being built: no refusal.
        XCTAssertEqual(
            try warnings(
                """
                ATTACH 'other.db' AS o;
                CREATE TABLE vacuum_log(v);
                INSERT INTO vacuum_log VALUES ('VACUUM o'); -- vacuum o
                VACUUM;
                VACUUM main;
                VACUUM temp;

                """), [])
    }
}
