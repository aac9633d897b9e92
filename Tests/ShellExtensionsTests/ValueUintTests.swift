import ShipyardTestSupport
import XCTest

/// The uint collation against the sqlite3 shell.
final class ValueUintTests: XCTestCase {
    static let fixed = [
        "", "a", "a0", "a00", "a1", "a01", "a001", "a9", "a10", "a010", "a2b", "a2b3", "a2b03", "a10b",
        "0", "00", "000", "1", "01", "10", "100", "18446744073709551616", "18446744073709551615",
        "99999999999999999999999999", "x 7 y", "x 07 y", "x7y", "é1", "é01", "e2", "9a", "09a", "Z5", "z5",
        "1.5", "1.10", "-3", "-03", "abc", "ABC", "a b", "12abc", "12", "012",
    ]

    /// Orders a fixed list of awkward strings, compares pairs, and uses the collation in an index.
    func testUintOrderingMatchesShell() throws {
        let values = Self.fixed.map(sqlLiteral).joined(separator: "),(")
        let cases = [
            "create table t(x); insert into t values(\(values));",
            "select group_concat(quote(x), ',') from (select x from t order by x collate uint, x);",
            "select group_concat(quote(x), ',') from (select x from t order by x collate uint desc, x);",
            "select count(*), count(distinct x collate uint) from t;",
            "select a.x, b.x, a.x < b.x collate uint, a.x = b.x collate uint from t a, t b where a.rowid < 12 and b.rowid < 12 order by a.rowid, b.rowid;",
            "create index tu on t(x collate uint); select group_concat(quote(x), ',') from t indexed by tu where x > 'a1' collate uint;",
            "select 2 < 10 collate uint, x'6139' < x'613130' collate uint, 'a' collate uint = 'A';",
        ]
        try assertMatchesShell(cases)
    }

    /// Seeded random strings of digits, zeros and a few letters, ordered by both.
    func testRandomUintOrderingMatchesShell() throws {
        var rng = SeededGenerator(seed: 20261122)
        let alphabet = Array("0001239ab.-")
        var strings = [String]()
        for _ in 0..<400 {
            let n = Int.random(in: 0...8, using: &rng)
            strings.append(String((0..<n).map { _ in alphabet.randomElement(using: &rng)! }))
        }
        let values = strings.map(sqlLiteral).joined(separator: "),(")
        try assertMatchesShell([
            "create table r(x); insert into r values(\(values));",
            "select group_concat(quote(x), ',') from (select x from r order by x collate uint, x);",
            "select count(distinct x collate uint) from r;",
        ])
    }
}
