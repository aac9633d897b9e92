import XCTest

/// The names, argument counts and flags of what the value extensions register, against the shell.
final class ValueRegistrationTests: XCTestCase {
    static let functions = [
        "sha3", "sha3_query", "ieee754", "ieee754_mantissa", "ieee754_exponent", "ieee754_to_blob",
        "ieee754_from_blob", "decimal", "decimal_cmp", "decimal_add", "decimal_sub", "decimal_mul",
        "decimal_sum", "regexp", "regexpi", "shell_add_schema", "shell_module_schema", "shell_putsnl",
        "shell_escape_crnl", "shell_int32", "shell_idquote",
    ]

    /// pragma_function_list rows (name, narg, type, flags) for every value function.
    func testFunctionListMatchesShell() throws {
        let names = Self.functions.map(sqlLiteral).joined(separator: ",")
        try assertMatchesShell([
            "select name, narg, type, flags from pragma_function_list where name in (\(names)) order by 1, 2;"
        ])
    }

    /// The collations and eponymous tables the value extensions add.
    func testCollationsAndModulesMatchShell() throws {
        try assertMatchesShell([
            "select name from pragma_collation_list where name in ('uint','decimal') order by 1;",
            "select name from pragma_module_list where name in ('generate_series','sqlite_dbdata','sqlite_dbptr') order by 1;",
        ])
    }

    /// With trusted_schema off, views may use only innocuous functions and tables: this shows
    /// the flags in action (sha3_query is direct-only, the shell_* helpers are not innocuous).
    func testUseFromViewsWithUntrustedSchemaMatchesShell() throws {
        let uses = [
            "sha3('a')", "sha3_query('select 1')", "ieee754(1.5)", "decimal_add(1, 2)", "regexp('a', 'a')",
            "shell_idquote('x')", "shell_int32(x'00000001', 0)", "'b' collate uint < 'a'", "'b' collate decimal < 'a'",
            "(select count(*) from generate_series(1, 3))", "(select count(*) from sqlite_dbdata('nosuch()'))",
            "(select count(*) from sqlite_dbptr)", "decimal_sum(1) over ()",
        ]
        var cases = ["pragma trusted_schema = 0;"]
        for (i, use) in uses.enumerated() {
            cases.append("create view v\(i) as select \(use) as x; select quote(x) from v\(i);")
        }
        try assertMatchesShell(cases)
    }
}
