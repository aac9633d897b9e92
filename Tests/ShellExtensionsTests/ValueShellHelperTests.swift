import XCTest

/// The shell's helper functions (shell_add_schema, ...) against the sqlite3 shell.
final class ValueShellHelperTests: XCTestCase {
    /// shell_add_schema over each kind of CREATE, schema names that need quoting, views.
    func testAddSchemaMatchesShell() throws {
        let sqls = [
            "'CREATE TABLE t(x)'", "'CREATE UNIQUE INDEX i ON t(x)'", "'CREATE INDEX i ON t(x)'",
            "'CREATE VIEW v AS SELECT 1'",
            "'CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END'", "'CREATE VIRTUAL TABLE f USING fts5(a)'",
            "'create table t(x)'", "'CREATE TABLEX t'", "'CREATE TABLE'", "'CREATE  TABLE t'", "'SELECT 1'", "NULL",
            "42", "''",
            "'CREATE VIEW v2 AS SELECT a, \"b c\" FROM t'", "'CREATE VIEW nosuch AS SELECT 1'",
        ]
        let schemas = ["NULL", "'main'", "'temp'", "'TEMP'", "'my schema'", "'select'", "'a\"b'", "'x1'", "''"]
        let names = ["NULL", "'v'", "'v2'", "'nosuch'", "'t'"]
        var cases = [
            "create table t(a, \"b c\", [select], \"x\"\"y\", _ok1); create view v as select a, \"b c\" from t; create view v2 as select 1 as \"1st\", 2 as \"order\";"
        ]
        for sql in sqls {
            for schema in schemas {
                cases.append(
                    "select quote(shell_add_schema(\(sql), \(schema), 'v')), quote(shell_add_schema(\(sql), \(schema), NULL));"
                )
            }
            for name in names { cases.append("select quote(shell_add_schema(\(sql), 'main', \(name)));") }
        }
        try assertMatchesShell(cases)
    }

    /// shell_module_schema, shell_escape_crnl, shell_int32 and shell_idquote.
    func testOtherHelpersMatchShell() throws {
        let setup =
            "create table t(a, \"b c\", [select]); create table \"odd \"\"name\"(x); create virtual table f using fts5(p, q);"
        var exprs =
            [
                "t", "odd \"name", "nosuch", "generate_series", "f", "sqlite_schema", "pragma_table_info", "json_each",
                "",
            ]
            .map { "shell_module_schema(\(sqlLiteral($0)))" } + ["shell_module_schema(NULL)", "shell_module_schema(1)"]
        let crnl = [
            "'a\nb'", "'a\r\nb'", "'has \\n already\n'", "'\\n\\012\n'", "'\\n\\012(\\n0)\n'",
            "'\\n\\012(\\n0)(\\n1)\n\r'",
            "'\\r\\015\r'", "'no newline'", "'\n'", "'\r'", "'\r\n\r\n'", "'''quoted'' \n'", "'no quote\n'", "NULL",
            "12",
            "x'27410a'", "x'410a'", "''",
        ]
        // The shell drops a carriage return before a newline in its input, so CRs are spelled char(13).
        exprs += crnl.map { "shell_escape_crnl(\($0.replacingOccurrences(of: "\r", with: "' || char(13) || '")))" }
        for blob in [
            "x'0000000100000002'", "x'ffffffff00'", "'abcd'", "NULL", "123", "x''", "zeroblob(8)", "x'80000000'",
        ] {
            for i in ["0", "1", "2", "-1", "'1'", "NULL", "1.9"] { exprs.append("shell_int32(\(blob), \(i))") }
        }
        exprs += ["'a'", "'a\"b'", "NULL", "1", "''", "x'41'", "'sélect'", "1.5"].map { "shell_idquote(\($0))" }
        try assertMatchesShell([setup] + selectCases(exprs))
    }

    /// shell_putsnl returns its argument; the shell also prints it, which dbgen does not.
    func testPutsnlReturnsItsArgumentAndPrintsNothing() throws {
        let arguments = ["'hello'", "12", "1.5", "x'41'", "''", "'two\nlines'"]
        let cases = arguments.map { "select quote(shell_putsnl(\($0))), typeof(shell_putsnl(\($0)));" }
        let shell = try ShellOracle.outputs(of: cases)
        let connection = ExtensionConnection()
        for (i, sql) in cases.enumerated() {
            let ours = connection.output(of: sql)
            let printed = try ShellOracle.outputs(of: ["select \(arguments[i]);"])[0]
            XCTAssertEqual(shell[i], printed + printed + ours, sql)
        }
    }
}
