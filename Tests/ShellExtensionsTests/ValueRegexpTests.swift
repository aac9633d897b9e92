import ShipyardTestSupport
import XCTest

/// regexp() and regexpi() against the sqlite3 shell.
final class ValueRegexpTests: XCTestCase {
    static let patterns = [
        "a^b", "a|^b", "(^a)", "x*^a", "a{1000}", "a\\", "\\q", "[[:alpha:]]", "a{,3}", "a{0}", "a{0,0}",
        "a{3,2}", "a{2", "*a", "+a", "?a", "{2}", "a)", "(a", "[a", "\\u00e9", "\\u00E9", "\\x41", "[A-C]", "a$b",
        "$", "", "(", "\\bfoo\\b", ".", "(ab)?*", "(ab)?*c", "a**", "\\q(", "\\d+", "a{1,2}{2}", "\\u004",
        "[\\]]", "[]a]", "[^]", "[a-]", "[\\d]", "x\\u0000", "é+", "\\W", "a{2,}", "a{,}", "a{}", "^a", "^$",
        "^", "a$|b", "a$b?", "^(a|b)*c$", "[^a-c]+", "[a-c-e]", "\\.", "\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\-\\\\",
        "\\t\\n\\r\\a\\f\\v", "\\s\\S", "\\D\\w", "[\\x41-\\x43]", "[\\u00e0-\\u00ff]", "x{2}y{0,1}z{1,}",
        "(a|b|c|d)(e|f)", "((((a))))", "((a|)b)", "(|a)", "a||b", "()", "(*)", "a?+", "a+*", "a*?", "ab*c?d+",
        "[abc", "[a-z]*[0-9]{2,3}", "hello world", "HELLO", "Z", "\\Bx", "\\x4", "\\xZZ", "\\uZZZZ", "\\é",
        "[é-ë]", "\u{1F600}", ".\u{1F600}.", "[\u{1F600}]", "\u{FFFD}",
    ]
    static let subjects = [
        "", "a", "b", "xab", "xb", "ba", "abab", "bbbc", "aaa", "aaaa", "é", "éé", "a foo b", "foo", "A", "abc",
        "ABC", "x12", "]", "-", "a^b", "a$b", "\t\n\r", " x", "hello world", "HELLO WORLD", "c", "abcd", "bc",
        "aab12", "z9", "*+?()[]{}|^$-\\", "Zz", "\u{1F600}", "x\u{1F600}y", "\u{FFFD}",
    ]

    /// Every fixed pattern against every fixed subject, case-sensitive and not; NULL arguments.
    func testFixedPatternsMatchShell() throws {
        var cases = [String]()
        for p in Self.patterns {
            let subjects = Self.subjects.map(sqlLiteral).joined(separator: "),(")
            cases.append(
                "select group_concat(quote(regexp(\(sqlLiteral(p)), s)) || quote(regexpi(\(sqlLiteral(p)), s)), ',') from (select column1 s from (values(\(subjects))));"
            )
            cases.append("select quote(regexp(\(sqlLiteral(p)), 'a')), \(sqlLiteral(p)) regexp 'b';")
        }
        cases += [
            "select quote(regexp(NULL, 'a')), quote(regexp('a', NULL)), quote(regexp('(', NULL)), quote(regexpi(NULL, NULL));",
            "select regexp(x'61', 'a'), regexp(1, '1'), regexp('1', 1.0), 'abc' regexp 'b', 'abc' regexp '^b';",
            "select regexp('b', x'610062'), regexp('a' || char(0) || 'b', 'a'), regexp('x', cast(x'78ff' as text));",
            "select regexp('\u{FFFD}', cast(x'ff' as text)), regexp('.\u{FFFD}', cast(x'41c0' as text)), regexp('^.$', cast(x'e08080' as text));",
            "create table rx(p, s); insert into rx values('a+', 'xaay'), ('(', 'x'), ('b', 'abc'); select quote(regexp(p, s)) from rx;",
            "select s regexp 'a.c' from (select 'abc' s union all select 'axxc' union all select 'a c');",
        ]
        try assertMatchesShell(cases)
    }

    /// Large and deeply nested patterns and long subjects.
    func testDeepPatternsMatchShell() throws {
        try assertMatchesShell([
            "select regexp(printf('%.*c', 5000, 'a'), printf('%.*c', 1000, 'a')), regexp(printf('%.*c', 1001, 'a'), printf('%.*c', 1000, 'a'));",
            "select regexp('(a{50}){20}', printf('%.*c', 1000, 'a')), regexp('^(a{50}){20}$', printf('%.*c', 999, 'a'));",
            "select regexp(printf('%.*c', 200, '(') || 'x' || printf('%.*c', 200, ')'), 'x');",
            "select regexp(printf('%.*c', 200, '(') || 'x', 'x');",
            "select regexp('(a|b|c|d|e|f|g|h|i|j)*z', printf('%.*c', 20000, 'j') || 'z');",
            "select regexp('(a*)*(b*)*c', printf('%.*c', 3000, 'a'));",
            "select regexp('a{100,200}b', printf('%.*c', 150, 'a') || 'b'), regexp('a{100,200}b', printf('%.*c', 99, 'a') || 'b');",
            "select regexp('x{0,1000}y', 'xxy'), regexpi('X{3}Y', 'xxxy');",
        ])
    }

    /// Seeded random patterns from a small alphabet against random subjects.
    func testRandomPatternsMatchShell() throws {
        var rng = SeededGenerator(seed: 3_40_1)
        let tokens = [
            "a", "b", "c", "A", ".", "*", "+", "?", "|", "(", ")", "[", "]", "[^", "^", "$", "{", "}", ",", "1", "2",
            "0",
            "-", "\\d", "\\w", "\\W", "\\b", "\\s", "\\S", "\\D", "\\x61", "\\u00e9", "é", "\\", "\\.", "a", "b", "(",
            ")",
        ]
        let letters = Array("abcaAb é1-_.")
        var cases = [String]()
        for _ in 0..<600 {
            let pattern = (0..<Int.random(in: 1...9, using: &rng)).map { _ in tokens.randomElement(using: &rng)! }
                .joined()
            let subjects = (0..<6).map { _ in
                sqlLiteral(
                    String((0..<Int.random(in: 0...10, using: &rng)).map { _ in letters.randomElement(using: &rng)! }))
            }
            cases.append(
                "select group_concat(regexp(\(sqlLiteral(pattern)), s) || regexpi(\(sqlLiteral(pattern)), s), ',') from (select column1 s from (values(\(subjects.joined(separator: "),(")))));"
            )
        }
        try assertMatchesShell(cases)
    }
}
