import Foundation
import SyncProtocol
import SyncServer
import XCTest

/// The server reads what syncs from the user schema script with the device's own reader
/// (LayeredDatabase's SyncDeclarations) and refuses every declaration docs/Sync.md refuses,
/// naming the file, the line and the table or column.
final class UserSchemaScriptTests: XCTestCase {
    let declarations = "CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);\n"

    /// The script's file name for the last `read`, which every refusal must name.
    var lastFile = ""

    func read(_ script: String) throws -> SyncSchema {
        lastFile = "user-schema-\(UUID().uuidString).sql"
        let path = NSTemporaryDirectory() + "/" + lastFile
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try UserSchemaScript.read(scriptAt: path)
    }

    func assertRefused(_ script: String, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(script), file: file, line: line) { error in
            let message = (error as? SyncServerError)?.reason ?? "\(error)"
            XCTAssertTrue(message.contains(lastFile), "'\(message)' does not name the script", file: file, line: line)
            XCTAssertTrue(message.contains("error: shipyard_sync: "), message, file: file, line: line)
            XCTAssertTrue(message.contains(words), "'\(message)' does not say '\(words)'", file: file, line: line)
        }
    }

    func testTheDeclarationsBecomeTheSchema() throws {
        let schema = try read(
            ServerTestCase.schemaScript
                + "\nCREATE TABLE calc (id TEXT PRIMARY KEY NOT NULL, a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2));\n"
                + "INSERT INTO shipyard_sync VALUES ('calc', NULL, 'last-edit-wins');\n")
        XCTAssertEqual(schema.tables.map(\.name), ["list", "item", "note", "stamp", "calc"])
        let list = try XCTUnwrap(schema.table(named: "LIST"))
        XCTAssertEqual(list.keyColumn, "id")
        XCTAssertEqual(list.rule, .lastEditWins)
        XCTAssertEqual(list.columns.map(\.name), ["title", "owner", "locked"])
        XCTAssertEqual(list.columns.map(\.rule), [.lastEditWins, .keepServer, .reject])
        XCTAssertEqual(schema.table(named: "item")?.column(named: "quantity")?.rule, .counter)
        XCTAssertEqual(schema.table(named: "stamp")?.rule, .reject)
        XCTAssertEqual(schema.table(named: "calc")?.columns.map(\.name), ["a"], "generated columns do not sync")
        XCTAssertNil(schema.table(named: "local_only"))
    }

    /// Each refusal is LayeredDatabase's (the device's reader), at the script line that wrote it.
    func testEveryRefusalNamesWhatIsWrong() {
        let t = "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n INTEGER, s TEXT);\n" + declarations
        assertRefused("CREATE TABLE t (id TEXT PRIMARY KEY);\n", "no table is declared, so nothing syncs")
        assertRefused(t, "no table is declared, so nothing syncs")
        let cases: [(String, String)] = [
            (
                "INSERT INTO shipyard_sync VALUES ('missing', NULL, 'last-edit-wins');",
                ":3:1: error: shipyard_sync: table \"missing\": no such table in the user database"
            ),
            ("INSERT INTO shipyard_sync VALUES ('t', NULL, 'merge');", "table \"t\": unknown rule 'merge'"),
            (
                "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'gone', 'counter');",
                "table \"t\", column \"gone\": no such column in t"
            ),
            (
                "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 's', 'counter');",
                "column \"s\": a counter column needs INTEGER affinity"
            ),
            (
                "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'n', 'counter'), ('t', 'N', 'reject');",
                "column \"N\": two rules for one column"
            ),
            (
                "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'id', 'reject');",
                "the key column can only be declared 'unique-key'"
            ),
            (
                "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', NULL, 'reject');",
                "table \"t\": the table is declared twice"
            ),
            (
                "INSERT INTO shipyard_sync VALUES ('t', 'n', 'counter');",
                "a column has a rule but the table does not sync"
            ),
        ]
        for (insert, words) in cases { assertRefused(t + insert, words) }
        assertRefused(
            "CREATE TABLE r (id INTEGER PRIMARY KEY, x TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('r', NULL, 'last-edit-wins');",
            "table \"r\": its key id is a bare INTEGER PRIMARY KEY")
        assertRefused(
            "CREATE TABLE r (id INTEGER PRIMARY KEY AUTOINCREMENT, x TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('r', NULL, 'last-edit-wins'), ('r', 'id', 'unique-key');",
            "AUTOINCREMENT")
        assertRefused(
            "CREATE TABLE c (a TEXT, b TEXT, PRIMARY KEY (a, b));\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('c', NULL, 'last-edit-wins');",
            "table \"c\": its PRIMARY KEY has 2 columns")
        assertRefused(
            "CREATE TABLE n (a TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('n', NULL, 'last-edit-wins');",
            "table \"n\": the table has no PRIMARY KEY")
        assertRefused(
            declarations + "INSERT INTO shipyard_sync VALUES ('shipyard_sync', NULL, 'last-edit-wins');",
            "the table is Shipyard's or SQLite's own, never synced")
        assertRefused(
            "CREATE TABLE g (id TEXT PRIMARY KEY NOT NULL, a INTEGER, b INTEGER GENERATED ALWAYS AS (a + 1));\n"
                + declarations
                + "INSERT INTO shipyard_sync VALUES ('g', NULL, 'last-edit-wins'), ('g', 'b', 'reject');",
            "column \"b\": a generated column does not sync")
    }

    func testAnIntegerKeyDeclaredUniqueSyncs() throws {
        let schema = try read(
            "CREATE TABLE r (id INTEGER PRIMARY KEY, x TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('r', NULL, 'keep-server'), ('r', 'id', 'unique-key');")
        XCTAssertEqual(schema.tables.first?.columns, [SyncSchema.Column(name: "x", rule: .keepServer)])
    }
}
