@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// `dbgen check`'s comparison: content, not bytes; each kind of difference named.
final class SchemaCheckTests: XCTestCase {
    private func build(_ script: String, in directory: TemporaryDirectory, as name: String) throws -> String {
        try directory.write("\(name).txt", script)
        var options = BuildOptions(
            schema: directory.url("\(name).txt").path, output: directory.url("\(name).sqlite").path)
        options.force = true
        options.cacheDirectory = nil // forced, so no fingerprint is needed: none lands in ~/.cache/dbgen
        _ = try DatabaseBuilder.build(options)
        return directory.url("\(name).sqlite").path
    }

    func testSameContentIsCurrentAndEachDifferenceIsNamed() throws {
        let directory = try TemporaryDirectory("schema-check", removedAfter: self)
        let schema = "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'x'); CREATE INDEX i ON t(a);\n"
        try directory.write("schema.txt", schema)
        let output = try build(schema, in: directory, as: "same")
        XCTAssertTrue(try SchemaCheck.run(schema: directory.url("schema.txt").path, output: output).isCurrent)

        let other = try build(
            """
            CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 1); CREATE TABLE extra(x);
            PRAGMA user_version = 3;

            """, in: directory, as: "other")
        let differences = try SchemaCheck.run(schema: directory.url("schema.txt").path, output: other).differences
        XCTAssertEqual(
            Set(differences),
            [
                .pragmaDiffers(name: "user_version", expected: 0, actual: 3),
                .missing(type: "index", name: "i"),
                .rowsDiffer(table: "t"),
                .extra(type: "table", name: "extra"),
            ])
    }

    func testRowsAreComparedWithTheirTypesAndWithoutRowidTablesByKey() throws {
        let directory = try TemporaryDirectory("schema-check", removedAfter: self)
        let expected = try build(
            "CREATE TABLE k(id PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO k VALUES (2, 1.0), (1, '1');\n",
            in: directory, as: "expected")
        let actual = try build(
            "CREATE TABLE k(id PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO k VALUES (1, '1'), (2, 1.0);\n",
            in: directory, as: "actual")
        let retyped = try build(
            "CREATE TABLE k(id PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO k VALUES (1, 1), (2, 1.0);\n",
            in: directory, as: "retyped")
        let a = try Connection(path: expected, readOnly: true)
        XCTAssertEqual(
            try DatabaseComparison.differences(expected: a, actual: Connection(path: actual, readOnly: true)), [])
        XCTAssertEqual(
            try DatabaseComparison.differences(expected: a, actual: Connection(path: retyped, readOnly: true)),
            [.rowsDiffer(table: "k")])
    }

    func testAnOutputThatIsNotADatabaseIsAnError() throws {
        let directory = try TemporaryDirectory("schema-check", removedAfter: self)
        try directory.write("schema.txt", "CREATE TABLE t(a);\n")
        try directory.write("junk.sqlite", String(repeating: "not a database ", count: 100))
        XCTAssertThrowsError(
            try SchemaCheck.run(
                schema: directory.url("schema.txt").path,
                output: directory.url("junk.sqlite").path)
        ) { error in
            XCTAssertEqual((error as? DBGenError)?.code, .unreadableDatabase, "\(error)")
        }
    }
}
