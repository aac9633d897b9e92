import XCTest

/// generate_series against the sqlite3 shell.
final class ValueSeriesTests: XCTestCase {
    /// Argument lists: defaults, negative and zero steps, NULLs, text, reals, overflow (limited).
    func testSeriesArgumentsMatchShell() throws {
        let arguments = [
            "1,5", "5,1", "1,10,3", "1,10,-3", "10,1,-3", "1,5,0", "0", "4294967290", "-5,5,2", "-5,5,-2",
            "null,3", "1,null", "1,3,null", "'a','3'", "'2','4','1'", "1.5,4.9", "1,1", "1,0", "-3,-1",
            "9223372036854775800,9223372036854775807", "-9223372036854775808,-9223372036854775805,-1",
            "1,100,9223372036854775807", "0,10,-9223372036854775808",
            "-9223372036854775808,9223372036854775807,4611686018427387904",
            "5,5,-1", "1,10,-20", "1,10,20", "x'01',3", "", "1,2,3,4",
        ]
        var cases = [String]()
        for a in arguments {
            cases.append("select group_concat(value, ' ') from (select value from generate_series(\(a)) limit 30);")
            cases.append("select value, start, stop, step, rowid from generate_series(\(a)) limit 3;")
            // Without STOP the core would sort 2^32 rows; every other list has both bounds, so the
            // table itself delivers the order and LIMIT stops the wrapping series.
            guard a != "0" else { continue }
            cases.append(
                "select group_concat(value, ' ') from (select value from generate_series(\(a)) order by value desc limit 30);"
            )
            cases.append(
                "select group_concat(value, ' ') from (select value from generate_series(\(a)) order by value asc limit 30);"
            )
        }
        try assertMatchesShell(cases)
    }

    /// Constraints in WHERE instead of arguments, joins, and the missing-START error.
    func testSeriesQueriesMatchShell() throws {
        try assertMatchesShell([
            "select * from generate_series;",
            "select * from generate_series();",
            "select * from generate_series where start=1 and stop=3;",
            "select * from generate_series(1,10) where start=2;",
            "select * from generate_series(1,20) where value between 3 and 5;",
            "select a.value, b.value from generate_series(1,3) a, generate_series(1,2) b order by 1, 2;",
            "select count(*) from generate_series(1,3) a join generate_series(a.value, 3) b;",
            "select sum(value) from generate_series(1,100000);",
            "select * from generate_series(1,10) limit 3 offset 2;",
            "create table s(x); insert into s values(2),(5); select x, (select group_concat(value) from generate_series(1, x)) from s;",
            "select * from generate_series where stop=3;",
            "select value from generate_series(1,10,2) where step=2 order by value desc;",
            "select * from generate_series(1,10) order by value desc, rowid;",
            "select value from generate_series(3,1,-1) order by +value;",
        ])
    }
}
