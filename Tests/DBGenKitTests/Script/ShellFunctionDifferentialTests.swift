@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// The sqlite3 3.40.1 shell's own SQL functions, collations and virtual tables, used by a script
/// built with dbgen (through ``DatabaseBuilder``) and with the shell: same content. Files they
/// read are inputs of the build. What writes files or runs programs is refused at its line.
///
/// These rows need the functions of CShellExtensions: they fail while its registration is a stub.
final class ShellFunctionDifferentialTests: XCTestCase {
    static let files = [
        "data.json": #"[{"id": 1, "name": "apple"}, {"id": 2, "name": "pear", "tags": ["green"]}]"#,
        "note.txt": "hello\nworld\n",
        "dir/a.txt": "A",
        "dir/b.txt": "BB",
    ]

    static let rows: [String] = [
        """
        CREATE TABLE food AS SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.name') AS name
          FROM json_each(readfile('data.json'));
        """,
        "CREATE TABLE blob AS SELECT readfile('note.txt') AS content, typeof(readfile('note.txt')) AS type;",
        "CREATE TABLE s AS SELECT value FROM generate_series(1, 20, 3);",
        "CREATE TABLE s AS SELECT value FROM generate_series(5) LIMIT 3;",
        "CREATE TABLE h AS SELECT hex(sha3('abc')) AS a, hex(sha3('abc', 224)) AS b, hex(sha3(x'00ff', 512)) AS c, hex(sha3(NULL)) AS d;",
        "CREATE TABLE t(x); INSERT INTO t VALUES (1), ('a'); CREATE TABLE h AS SELECT hex(sha3_query('SELECT * FROM t')) AS q;",
        """
        CREATE TABLE d AS SELECT decimal('1.50') AS a, decimal_add('1.1', '2.25') AS b, decimal_sub('1', '0.001') AS c,
          decimal_mul('-1.5', '3') AS e, decimal_cmp('10', '9.99') AS f;
        """,
        "CREATE TABLE n(v); INSERT INTO n VALUES ('1.1'), ('2.2'), ('0.0001'); CREATE TABLE d AS SELECT decimal_sum(v) AS total FROM n;",
        "CREATE TABLE n(v TEXT COLLATE decimal); INSERT INTO n VALUES ('10'), ('9.5'), ('-1'); CREATE TABLE o AS SELECT v FROM n ORDER BY v;",
        """
        CREATE TABLE i AS SELECT ieee754(2.5) AS a, ieee754_mantissa(2.5) AS m, ieee754_exponent(2.5) AS e,
          hex(ieee754_to_blob(2.5)) AS b, ieee754_from_blob(x'4004000000000000') AS f, ieee754(5, -1) AS g;
        """,
        "CREATE TABLE u(v TEXT COLLATE uint); INSERT INTO u VALUES ('a10'), ('a9'), ('a100'); CREATE TABLE o AS SELECT v FROM u ORDER BY v;",
        "CREATE TABLE r AS SELECT 'abc' REGEXP 'b+' AS a, 'ABC' REGEXP 'b' AS b, regexpi('b', 'ABC') AS c, regexp('^a', 'xa') AS d;",
        "CREATE TABLE f AS SELECT name, typeof(data) AS t FROM fsdir('dir') WHERE name LIKE '%.txt' ORDER BY name;",
        "CREATE TABLE l AS SELECT lsmode(33188) AS a, lsmode(16877) AS b;",
        "CREATE TABLE z AS SELECT hex(sqlar_uncompress(sqlar_compress(zeroblob(100)), 100)) AS a;",
        """
        CREATE TABLE z AS SELECT hex(zipfile(name, mode, mtime, data)) AS archive
          FROM (SELECT 'a.txt' AS name, 33188 AS mode, 1700000000 AS mtime, 'hello' AS data);
        """,
        """
        CREATE TABLE q AS SELECT shell_idquote('a b') AS a, shell_idquote('plain') AS b, shell_int32(x'0102030405060708', 1) AS c,
          shell_escape_crnl('x' || char(10) || 'y') AS d, shell_add_schema('CREATE TABLE t(x)', 'aux', 't') AS e,
          shell_module_schema('generate_series') AS f, usleep(1) AS g;
        """,
        "CREATE TABLE c AS SELECT candidate FROM completion('generate_') ORDER BY candidate;",
    ]

    func testShellFunctionsBuildTheSameContentAsSQLite3() throws {
        for row in Self.rows {
            let differential = try ShellScriptDifferential(files: Self.files, removedAfter: self)
            let script = row + "\nPRAGMA user_version = 1;\n"
            let dbgen = try differential.runDBGen(script)
            let shell = try differential.runShell(script)
            XCTAssertEqual(shell.status, 0, "sqlite3 failed on \(row): \(shell.stderr)")
            XCTAssertNil(dbgen.error, "dbgen stopped on \(row)")
            XCTAssertEqual(dbgen.content, shell.content, "content differs for \(row)")
        }
    }

    func testWritersAreRefusedAtTheirLineWithNothingWritten() throws {
        let rows = [
            "SELECT writefile('out.txt', 'x');",
            "SELECT edit('text', 'true');",
            "CREATE VIRTUAL TABLE z USING zipfile('new.zip');\nINSERT INTO z(name, data) VALUES ('a.txt', 'b');",
        ]
        for row in rows {
            let differential = try ShellScriptDifferential(files: Self.files, removedAfter: self)
            let script = "CREATE TABLE keep(x);\n" + row + "\n"
            let before = try differential.files(writing: script)
            let dbgen = try differential.runDBGen(script)
            XCTAssertNotNil(dbgen.error, row)
            XCTAssertEqual(
                dbgen.error?.location?.line, 1 + row.split(separator: "\n").count,
                "\(row): \(String(describing: dbgen.error))")
            XCTAssertEqual(try differential.files(), before, "\(row) wrote something")
        }
    }

    /// A file readfile() reads is an input: listed in the summary (and so the depfile), and a
    /// change to it makes the next build run.
    func testFilesTheFunctionsReadAreInputsOfTheBuild() throws {
        try assertRebuilds(
            files: [
                "data/schema.txt": "CREATE TABLE j AS SELECT value FROM json_each(readfile('rows.json'));\n",
                "data/rows.json": "[1, 2, 3]",
            ],
            schema: "data/schema.txt", input: "data/rows.json", rows: ("j", 3),
            after: ("data/rows.json", "[1, 2, 3, 4]"), rows: ("j", 4))
    }

    /// What fsdir lists comes from the file system: a file added to a listed directory makes
    /// the next build run (every entry it walks, directories included, is an input).
    func testEntriesFsdirListsAreInputsOfTheBuild() throws {
        try assertRebuilds(
            files: ["schema.txt": "CREATE TABLE f AS SELECT name FROM fsdir('files');\n", "files/a.txt": "a"],
            schema: "schema.txt", input: "files/a.txt", rows: ("f", 2),
            after: ("files/b.txt", "b"), rows: ("f", 3))
    }

    /// Builds `schema` among `files` (`input` among the inputs, the table with that many rows),
    /// sees the next build skipped, writes `change`, and sees the build after it run.
    private func assertRebuilds(
        files: [String: String], schema: String, input: String, rows before: (String, Int),
        after change: (path: String, text: String), rows after: (String, Int),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let directory = try TemporaryDirectory("shell-inputs", removedAfter: self)
        for (path, text) in files { try directory.write(path, text) }
        try directory.backdateContents()
        var options = BuildOptions(schema: directory.url(schema).path, output: directory.url("out.sqlite").path)
        options.cacheDirectory = directory.url("cache").path // the fingerprint in the test's directory
        let first = try DatabaseBuilder.build(options)
        XCTAssertTrue(first.inputs.contains { $0.hasSuffix(input) }, "\(first.inputs)", file: file, line: line)
        XCTAssertEqual(first.tables, [BuildSummary.Table(name: before.0, rows: before.1)], file: file, line: line)
        XCTAssertTrue(try DatabaseBuilder.build(options).upToDate, file: file, line: line)
        try directory.write(change.path, change.text)
        let second = try DatabaseBuilder.build(options)
        XCTAssertFalse(second.upToDate, file: file, line: line)
        XCTAssertEqual(second.tables, [BuildSummary.Table(name: after.0, rows: after.1)], file: file, line: line)
    }
}
