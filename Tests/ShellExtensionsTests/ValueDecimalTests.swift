import ShipyardTestSupport
import XCTest

/// The decimal functions, aggregate and collation against the sqlite3 shell.
final class ValueDecimalTests: XCTestCase {
    static let values = [
        "NULL", "''", "'0'", "'-0'", "'-0.000'", "'-.0'", "'abc'", "'1a2.3b4'", "x'3ff0000000000000'", "x'313233'",
        "' 12 '", "'1e'", "'1.5e3'", "'1.5e-3'", "'12e-5'", "'0012.3400'", "'.5'", "'5.'", "'+-5'", "'1-2'",
        "'1e5.5'", "'0x10'", "'1 2'", "'1e+3'", "'0.5e-1'", "'123.456e-7'", "'9.99e2'", "char(9)||'5'", "'  -0012'",
        "0.1", "1.5", "1e300", "-1.0e-5", "9223372036854775807", "-9223372036854775808", "0", "-1", "'1.2.3'",
        "'99999999999999999999999999.999999999999'", "'-0.0000000000000000001'", "'é5'", "'1e-1000'", "'3e40'",
    ]

    /// decimal(X) of awkward text, and each binary function over a grid of values.
    func testFunctionsMatchShell() throws {
        var exprs = Self.values.map { "decimal(\($0))" }
        let operands = [
            "NULL", "'0'", "'-0'", "'1'", "'-1'", "'1.0'", "'-1.0'", "'0.1'", "'0.2'", "'-0.000'", "'999.99'",
            "'0.001'",
            "'123456789012345678901234567890'", "'-5e-3'", "2.5", "'abc'", "'1e10'", "'1e-10'",
        ]
        for f in ["decimal_add", "decimal_sub", "decimal_mul", "decimal_cmp"] {
            for a in operands { for b in operands { exprs.append("\(f)(\(a), \(b))") } }
        }
        exprs += [
            "length(decimal('1e999999999'))",
            "decimal_add('1e-1000000','1') = '1.' || printf('%.*c', 999999, '0') || '1'",
        ]
        try assertMatchesShell(selectCases(exprs))
    }

    /// decimal_sum as an aggregate and as a window function (which removes rows again).
    func testSumMatchesShell() throws {
        try assertMatchesShell([
            "create table t(g, x); insert into t values(1,'1.1'),(1,NULL),(1,'2'),(2,NULL),(3,'-2'),(3,'2'),(4,'0.10'),(4,'-0.1'),(4,'1e-5');",
            "select g, quote(decimal_sum(x)) from t group by g order by g;",
            "select quote(decimal_sum(x)) from t where 0;",
            "select quote(decimal_sum(x)) from t;",
            "select g, quote(decimal_sum(x) over (order by rowid rows between 1 preceding and current row)) from t;",
            "select g, quote(decimal_sum(x) over (partition by g order by rowid)) from t;",
            "select quote(decimal_sum(x) over (order by rowid rows between unbounded preceding and unbounded following)) from t;",
            "select quote(decimal_sum(x) over (order by rowid rows between 2 preceding and 1 preceding)) from t;",
            "select quote(decimal_sum(value)) from generate_series(1, 1000);",
        ])
    }

    /// The decimal collation in ORDER BY, comparisons, DISTINCT and an index.
    func testCollationMatchesShell() throws {
        let list = Self.values.filter { !$0.hasPrefix("x") && $0 != "NULL" && !$0.contains("char(") }.joined(
            separator: "),(")
        try assertMatchesShell([
            "create table c(x); insert into c values(\(list));",
            "select group_concat(quote(x), ',') from (select x from c order by x collate decimal, x);",
            "select count(distinct x collate decimal) from c;",
            "select '1.0' = '1' collate decimal, '-0' < '0' collate decimal, '0.10' = '.1' collate decimal, 'abc' = '0' collate decimal;",
            "create index ci on c(x collate decimal); select group_concat(quote(x), ',') from c indexed by ci where x > '1' collate decimal;",
        ])
    }

    /// Seeded random numbers through every operation and through the collation.
    func testRandomArithmeticMatchesShell() throws {
        var rng = SeededGenerator(seed: 4_0_1)
        var exprs = [String]()
        var numbers = [String]()
        for _ in 0..<300 { numbers.append(Self.randomDecimal(&rng)) }
        for i in 0..<numbers.count {
            let a = sqlLiteral(numbers[i]), b = sqlLiteral(numbers[(i * 7 + 3) % numbers.count])
            exprs += [
                "decimal(\(a))", "decimal_add(\(a), \(b))", "decimal_sub(\(a), \(b))", "decimal_mul(\(a), \(b))",
                "decimal_cmp(\(a), \(b))",
            ]
        }
        var cases = selectCases(exprs)
        cases.append("create table r(x); insert into r values(\(numbers.map(sqlLiteral).joined(separator: "),(")));")
        cases.append("select group_concat(quote(x), ',') from (select x from r order by x collate decimal, x);")
        cases.append("select quote(decimal_sum(x)) from r;")
        cases.append("select quote(decimal_sum(x) over (order by rowid rows 3 preceding)) from r;")
        try assertMatchesShell(cases)
    }

    /// A random decimal-ish string: optional spaces and sign, zeros, digits, a point, an exponent.
    static func randomDecimal(_ rng: inout SeededGenerator) -> String {
        var s = Int.random(in: 0..<10, using: &rng) == 0 ? " " : ""
        s += ["", "", "-", "+"].randomElement(using: &rng)!
        s += String(repeating: "0", count: Int.random(in: 0...2, using: &rng))
        let digits = Int.random(in: 0...25, using: &rng)
        let point = Int.random(in: -1...digits, using: &rng)
        for i in 0..<digits {
            if i == point { s += "." }
            s += String(Int.random(in: 0...9, using: &rng))
        }
        if Int.random(in: 0..<5, using: &rng) == 0 {
            s += "e" + ["", "-", "+"].randomElement(using: &rng)! + String(Int.random(in: 0...30, using: &rng))
        }
        if Int.random(in: 0..<20, using: &rng) == 0 { s += "x" }
        return s
    }
}
