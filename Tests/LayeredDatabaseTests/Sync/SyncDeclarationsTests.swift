import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest

/// `shipyard_sync` read and validated as docs/Sync.md's "Declaring what syncs" says: what is
/// accepted becomes the schema model, and each refusal names the table (and column) and says
/// how to fix it.
final class SyncDeclarationsTests: LayeredDatabaseTestCase {
    private let declarationTable =
        "CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);"

    private func read(_ script: String) throws -> SyncDeclarations {
        let connection = try Connection(path: try makeSyncDatabase(self, script))
        return try SyncDeclarations.read(from: connection)
    }

    /// The problem the declarations of `tables` + `rows` raise.
    private func problem(_ tables: String, _ rows: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> SyncDeclarationProblem
    {
        do {
            _ = try read(tables + "\n" + declarationTable + "\nINSERT INTO shipyard_sync VALUES " + rows + ";")
        } catch let problem as SyncDeclarationProblem {
            return problem
        }
        XCTFail("accepted: \(rows)", file: file, line: line)
        return SyncDeclarationProblem(table: nil, reason: "", fix: "")
    }

    func testTheDocumentedExampleIsTheModel() throws {
        let schema = try read(syncedSchema).schema
        XCTAssertEqual(
            schema,
            SyncSchema(tables: [
                .init(
                    name: "list", keyColumn: "id", rule: .lastEditWins,
                    columns: [.init(name: "title", rule: .lastEditWins), .init(name: "owner", rule: .keepServer)]),
                .init(
                    name: "item", keyColumn: "id", rule: .lastEditWins,
                    columns: [
                        .init(name: "list_id", rule: .lastEditWins), .init(name: "name", rule: .lastEditWins),
                        .init(name: "done", rule: .lastEditWins), .init(name: "quantity", rule: .counter),
                    ]),
            ]))
    }

    func testNothingDeclaredIsNoSync() throws {
        XCTAssertFalse(try read("CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL);").declaresSync)
        XCTAssertFalse(try read(declarationTable).declaresSync)
    }

    func testAcceptedKeysAndNames() throws {
        let schema = try read(
            """
            CREATE TABLE "Note" (uid BLOB PRIMARY KEY NOT NULL, body TEXT, size INTEGER GENERATED ALWAYS AS (length(body)));
            CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE pin (id INT PRIMARY KEY NOT NULL, x) WITHOUT ROWID;
            CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            \(declarationTable)
            INSERT INTO shipyard_sync VALUES ('note', NULL, 'reject'), ('TAG', NULL, 'keep-server'),
                ('tag', 'ID', 'unique-key'), ('pin', NULL, 'last-edit-wins'), ('pin', 'id', 'unique-key'),
                ('w', NULL, 'last-edit-wins');
            """
        ).schema
        // Names as the schema spells them; the generated column and the key are not synced columns.
        XCTAssertEqual(schema.tables.map(\.name), ["Note", "tag", "pin", "w"])
        XCTAssertEqual(schema.tables[0].columns, [.init(name: "body", rule: .reject)])
        XCTAssertEqual(schema.tables[1].keyColumn, "id")
        XCTAssertEqual(schema.tables[1].columns, [.init(name: "name", rule: .keepServer)])
        XCTAssertEqual(schema.tables[2].columns.map(\.name), ["x"])
    }

    func testEachRefusalNamesTheTableAndTheFix() throws {
        let cases: [(tables: String, rows: String, names: [String], says: String)] = [
            ("", "('missing', NULL, 'last-edit-wins')", ["\"missing\""], "no such table"),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);",
                "('t', NULL, 'last-edit-wins'), ('t', 'b', 'reject')",
                ["\"t\"", "\"b\""], "no such column"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);", "('t', NULL, 'first-edit-wins')", ["\"t\""],
                "unknown rule 'first-edit-wins'"
            ),
            ("CREATE TABLE t (a, b);", "('t', NULL, 'last-edit-wins')", ["\"t\""], "no PRIMARY KEY"),
            (
                "CREATE TABLE t (a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b));",
                "('t', NULL, 'last-edit-wins')",
                ["\"t\""], "PRIMARY KEY has 2 columns"
            ),
            (
                "CREATE TABLE t (id INTEGER PRIMARY KEY, a);", "('t', NULL, 'last-edit-wins')", ["\"t\"", "id"],
                "bare INTEGER PRIMARY KEY"
            ),
            (
                "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, a);",
                "('t', NULL, 'last-edit-wins'), ('t', 'id', 'unique-key')", ["\"t\""], "AUTOINCREMENT"
            ),
            (
                "CREATE TABLE t (id INT PRIMARY KEY NOT NULL, a);", "('t', NULL, 'last-edit-wins')", ["\"t\""],
                "is an INTEGER"
            ),
            (
                "CREATE TABLE t (id REAL PRIMARY KEY NOT NULL, a);", "('t', NULL, 'last-edit-wins')", ["\"t\""],
                "REAL affinity"
            ),
            ("CREATE TABLE t (id TEXT PRIMARY KEY, a);", "('t', NULL, 'last-edit-wins')", ["\"t\""], "may be NULL"),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n TEXT);",
                "('t', NULL, 'last-edit-wins'), ('t', 'n', 'counter')",
                ["\"t\"", "\"n\""], "INTEGER affinity"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n TEXT);", "('t', NULL, 'counter')", ["\"t\"", "\"n\""],
                "INTEGER affinity"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);",
                "('t', NULL, 'last-edit-wins'), ('t', 'id', 'reject')",
                ["\"t\"", "\"id\""], "key column can only be declared 'unique-key'"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);",
                "('t', NULL, 'last-edit-wins'), ('t', 'a', 'unique-key')",
                ["\"t\"", "\"a\""], "unique-key is only for the key column"
            ),
            ("", "('shipyard_sync', NULL, 'last-edit-wins')", ["\"shipyard_sync\""], "Shipyard's or SQLite's own"),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);",
                "('t', NULL, 'last-edit-wins'), ('t', 'a', 'reject'), ('T', 'A', 'keep-server')",
                ["\"T\"", "\"A\""], "two rules for one column"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);",
                "('t', NULL, 'last-edit-wins'), ('t', NULL, 'reject')",
                ["\"t\""], "declared twice"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);", "('t', 'a', 'reject')", ["\"t\"", "\"a\""],
                "the table does not sync"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a TEXT, b AS (a || 'x'));",
                "('t', NULL, 'last-edit-wins'), ('t', 'b', 'reject')", ["\"t\"", "\"b\""], "generated column"
            ),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);", "('t', NULL, 'unique-key')", ["\"t\""],
                "not for a table"
            ),
            ("CREATE VIRTUAL TABLE t USING fts5(a);", "('t', NULL, 'last-edit-wins')", ["\"t\""], "virtual table"),
            ("", "(X'74', NULL, 'last-edit-wins')", [], "table_name is a blob"),
            ("", "('', NULL, 'last-edit-wins')", [], "table_name is empty"),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);", "('t', X'61', 'last-edit-wins')", ["\"t\""],
                "column_name is a blob"
            ),
        ]
        for (tables, rows, names, says) in cases {
            let problem = try problem(tables, rows)
            let text = problem.description
            XCTAssertTrue(text.hasPrefix("shipyard_sync"), text)
            XCTAssertTrue(text.contains(says), "\(rows): \(text)")
            for name in names { XCTAssertTrue(text.contains(name), "\(rows): \(text) does not name \(name)") }
            XCTAssertFalse(problem.fix.isEmpty, text)
            XCTAssertNotNil(problem.declarationRowID, text)
        }
    }

    /// The first refused row, in rowid order, is the one reported.
    func testTheFirstRefusedRowIsReported() throws {
        let problem = try problem(
            "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);",
            "('t', NULL, 'last-edit-wins'), ('t', 'a', 'nope'), ('u', NULL, 'nope2')")
        XCTAssertEqual(problem.declarationRowID, 2)
        XCTAssertTrue(problem.description.contains("'nope'"), problem.description)
    }

    func testAMalformedDeclarationTableIsNamed() throws {
        do {
            _ = try read("CREATE TABLE shipyard_sync (table_name TEXT, rule TEXT);")
            XCTFail("accepted")
        } catch let problem as SyncDeclarationProblem {
            XCTAssertTrue(problem.description.contains("column_name"), problem.description)
        }
    }

    func testReferencesAreReadAndChecked() throws {
        let base = """
            CREATE TABLE favourite (id TEXT PRIMARY KEY NOT NULL, food_pk INTEGER);
            CREATE TABLE shipyard_references (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
                                              shipped_table TEXT NOT NULL, shipped_column TEXT NOT NULL);
            """
        let references = try read(
            base + "INSERT INTO shipyard_references VALUES ('favourite', 'FOOD_PK', 'food', 'pk');"
        )
        .references
        XCTAssertEqual(
            references,
            [ShippedReference(table: "favourite", column: "food_pk", shippedTable: "food", shippedColumn: "pk")])
        for (row, says) in [
            ("('nope', 'food_pk', 'food', 'pk')", "no such table"),
            ("('favourite', 'x', 'food', 'pk')", "no such column"),
        ] {
            do {
                _ = try read(base + "INSERT INTO shipyard_references VALUES \(row);")
                XCTFail("accepted \(row)")
            } catch let problem as SyncDeclarationProblem {
                XCTAssertEqual(problem.catalog, "shipyard_references")
                XCTAssertTrue(problem.description.contains(says), problem.description)
            }
        }
    }
}
