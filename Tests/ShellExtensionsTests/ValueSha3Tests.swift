import XCTest

/// sha3() and sha3_query() against the sqlite3 shell.
final class ValueSha3Tests: XCTestCase {
    /// Values of every type and size, with each digest size and bad sizes.
    func testSha3MatchesShell() throws {
        let values = [
            "NULL", "''", "'abc'", "x''", "x'00ff'", "1", "-1", "1.5", "1e300", "-0.0", "9223372036854775807",
            "'héllo wörld ✓'", "zeroblob(1000)", "zeroblob(0)", "printf('%.*c', 135, 'a')", "printf('%.*c', 136, 'a')",
            "printf('%.*c', 137, 'a')", "printf('%.*c', 10000, 'z')", "'1'", "'1.5'", "cast('12' as blob)",
        ]
        var exprs = [String]()
        for v in values {
            exprs.append("hex(sha3(\(v)))")
            for size in ["224", "256", "384", "512", "'384'", "256.7", "0", "NULL", "'x'", "128"] {
                exprs.append("hex(sha3(\(v), \(size)))")
            }
        }
        try assertMatchesShell(selectCases(exprs))
    }

    /// sha3_query over queries returning every type, several statements, errors and non-queries.
    func testSha3QueryMatchesShell() throws {
        let setup =
            "create table t(a,b,c); insert into t values(1,'two',x'03'),(null,4.5,-9223372036854775808),('', x'', 1e-300);"
        let queries = [
            "select 1", "select * from t", "select * from t; select a from t order by 1",
            "  ", "", "-- only a comment", "select 1;  ", "select 1; select nosuch", "select 1 +; select 1",
            "bogus", "create table u(x)", "insert into t values(1,2,3)", "select 1; select 1 +",
            "select abs(-9223372036854775808)", "select 'x' union all select 2.0", "select zeroblob(0), zeroblob(3)",
            "pragma table_info(t)", "select sha3(a) from t", "select 'é'", "select 0.1, -0.0, 1e308*10",
        ]
        var cases = [setup]
        for q in queries {
            for size in ["", ", 224", ", 512", ", 100"] {
                cases.append("select hex(sha3_query(\(sqlLiteral(q))\(size)));")
            }
        }
        cases += [
            "select sha3_query(NULL);", "select quote(sha3_query(NULL, 7));", "select hex(sha3_query(12));",
            "select hex(sha3_query(x'73656c6563742031'));",
        ]
        try assertMatchesShell(cases)
    }
}
