import XCTest

/// The ieee754 functions against the sqlite3 shell.
final class ValueIeee754Tests: XCTestCase {
    static let reals = [
        "0.0", "-0.0", "1.0", "-1.0", "0.1", "2.5", "-3.75", "1e300", "-1e-300", "5e-324", "2.2250738585072014e-308",
        "1.7976931368623157e308", "9e999", "-9e999", "123456789", "-9223372036854775807", "9223372036854775807",
        "'abc'", "'1.5'", "NULL", "x'01'", "x'3ff0000000000000'", "x'8000000000000000'", "x'fff8000000000000'",
        "x'7ff0000000000001'", "x'0000000000000001'", "x'000000000000000000'", "0", "1", "''",
    ]

    /// ieee754(X), its mantissa and exponent, and the blob conversions, for every kind of value.
    func testSplittingMatchesShell() throws {
        var exprs = [String]()
        for r in Self.reals {
            exprs += [
                "ieee754(\(r))", "ieee754_mantissa(\(r))", "ieee754_exponent(\(r))", "hex(ieee754_to_blob(\(r)))",
                "ieee754_from_blob(\(r))", "ieee754_from_blob(ieee754_to_blob(\(r)))",
            ]
        }
        try assertMatchesShell(selectCases(exprs))
    }

    /// ieee754(M,E) for ordinary, huge, tiny, subnormal, zero and non-numeric arguments.
    func testJoiningMatchesShell() throws {
        let mantissas = [
            "0", "1", "-1", "3", "-3", "4503599627370496", "9007199254740993", "9223372036854775807",
            "-9223372036854775807", "6724873095247260", "'7'", "NULL", "1.9", "'x'",
        ]
        let exponents = [
            "0", "1", "-1", "-1074", "-1075", "-1080", "-1100", "971", "972", "1000", "5000", "20000",
            "-2000", "-20000", "NULL", "'3'", "-999", "999",
        ]
        var exprs = [String]()
        for m in mantissas { for e in exponents { exprs.append("ieee754(\(m), \(e))") } }
        for r in Self.reals where !r.hasPrefix("x") && !r.hasPrefix("'") && r != "NULL" {
            exprs.append("ieee754(ieee754_mantissa(\(r)), ieee754_exponent(\(r))) = \(r)")
        }
        try assertMatchesShell(selectCases(exprs))
    }
}
