import Foundation
import SyncProtocol
import SyncServer
import XCTest

/// The server reads what syncs from the user schema script and refuses every declaration
/// docs/Sync.md refuses, naming the file and the table or column.
final class UserSchemaReaderTests: XCTestCase {
    let declarations = "CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);\n"

    func read(_ script: String) throws -> SyncSchema {
        let path = NSTemporaryDirectory() + "/user-schema-\(UUID().uuidString).sql"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try UserSchemaReader.read(scriptAt: path)
    }

    func assertRefused(_ script: String, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(script), file: file, line: line) { error in
            let message = (error as? SyncServerError)?.reason ?? "\(error)"
            XCTAssertTrue(message.contains("error: shipyard_sync: "), message, file: file, line: line)
            XCTAssertTrue(message.contains(words), "'\(message)' does not say '\(words)'", file: file, line: line)
        }
    }

    func testTheDeclarationsBecomeTheSchema() throws {
        let schema = try read(
            ServerTestCase.schemaScript
                + "\nCREATE TABLE calc (id TEXT PRIMARY KEY, a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2));\n"
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

    func testEveryRefusalNamesWhatIsWrong() {
        let t = "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n INTEGER, s TEXT);\n" + declarations
        assertRefused("CREATE TABLE t (id TEXT PRIMARY KEY);\n", "declares no table shipyard_sync")
        assertRefused(t, "no table is declared")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('missing', NULL, 'last-edit-wins');",
            "table 'missing' does not exist")
        assertRefused(t + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'merge');", "table 't': unknown rule 'merge'")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'gone', 'counter');",
            "column 't.gone' does not exist")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 's', 'counter');",
            "column 't.s' is a counter but has no INTEGER affinity")
        assertRefused(
            t
                + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'n', 'counter'), ('t', 'N', 'reject');",
            "column 't.N' has two rules")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'id', 'reject');",
            "the key column 'id' takes no rule but unique-key")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', 'id', 'unique-key');",
            "unique-key declares an INTEGER key")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins'), ('t', NULL, 'reject');",
            "table 't' is declared twice")
        assertRefused(
            "CREATE TABLE r (id INTEGER PRIMARY KEY, x TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('r', NULL, 'last-edit-wins');",
            "table 'r': the key 'id' is a bare INTEGER PRIMARY KEY")
        assertRefused(
            "CREATE TABLE r (id INTEGER PRIMARY KEY AUTOINCREMENT, x TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('r', NULL, 'last-edit-wins'), ('r', 'id', 'unique-key');",
            "AUTOINCREMENT")
        assertRefused(
            "CREATE TABLE c (a TEXT, b TEXT, PRIMARY KEY (a, b));\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('c', NULL, 'last-edit-wins');",
            "table 'c': a composite primary key")
        assertRefused(
            "CREATE TABLE n (a TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('n', NULL, 'last-edit-wins');",
            "table 'n': no primary key")
        assertRefused(
            declarations + "INSERT INTO shipyard_sync VALUES ('shipyard_sync', NULL, 'last-edit-wins');",
            "shipyard_ tables never sync")
        assertRefused(
            "CREATE TABLE g (id TEXT PRIMARY KEY, a INTEGER, b INTEGER GENERATED ALWAYS AS (a + 1));\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('g', NULL, 'last-edit-wins'), ('g', 'b', 'reject');",
            "column 'g.b' is generated")
        assertRefused(
            t + "INSERT INTO shipyard_sync VALUES ('t', 'n', 'counter');", "the table has no (table, NULL, rule) row")
    }

    func testAnIntegerKeyDeclaredUniqueSyncs() throws {
        let schema = try read(
            "CREATE TABLE r (id INTEGER PRIMARY KEY, x TEXT);\n" + declarations
                + "INSERT INTO shipyard_sync VALUES ('r', NULL, 'keep-server'), ('r', 'id', 'unique-key');")
        XCTAssertEqual(schema.tables.first?.columns, [SyncSchema.Column(name: "x", rule: .keepServer)])
    }
}
