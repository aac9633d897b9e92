@testable import DBGenKit
import ShipyardTestSupport
import XCTest

/// Seeded random scripts mixing `.parameter` bindings, `.mode`/`.separator`/`.import`,
/// `.dbconfig`, output-only dot-commands and SQL, built by dbgen (through ``DatabaseBuilder``)
/// and by the sqlite3 shell: the shell must accept each script and both must build the same
/// content. A failure names the seed and prints the script.
final class RandomShellScriptTests: XCTestCase {
    func testRandomScriptsBuildTheSameContentAsSQLite3() throws {
        for seed in UInt64(1)...40 {
            var generator = RandomShellScript(seed: seed)
            let (script, files) = generator.make()
            let differential = try ShellScriptDifferential(files: files, removedAfter: self)
            let shell = try differential.runShell(script)
            let dbgen = try differential.runDBGen(script)
            let context = "seed \(seed):\n\(script)"
            XCTAssertEqual(shell.status, 0, "sqlite3 rejected \(context)\n\(shell.stderr)")
            XCTAssertNil(dbgen.error, context)
            XCTAssertEqual(dbgen.content, shell.content, "content differs, \(context)")
        }
    }
}

/// Makes one random script and the data files it imports.
struct RandomShellScript {
    private var generator: SeededGenerator
    /// The column separator the shell will use at the next `.import`, as far as this model
    /// knows (the data files are written with it; a wrong guess still has to agree).
    private var mode = "list"
    private var columnSeparator = "|"
    private var lines: [String] = []
    private var files: [String: String] = [:]

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    static let parameterNames = [":p1", ":p2", "@q", "$r", "?1", "?2"]
    static let parameterValues = [
        "7", "-3", "2.5", "'text'", "\"'quoted'\"", "word", "NULL", "x'0aff'", "1+2", "upper('abc')",
    ]
    static let outputOnly = [
        ".tables", ".schema", ".headers on", ".headers off", ".nullvalue -", ".width 3 4",
        ".print hi", ".show", ".dump", ".databases", ".timer off", ".changes off",
        ".indexes", ".limit", ".dbconfig", ".parameter list", ".eqp off", ".bail on",
    ]
    static let separators = ["|", ";", ",", "\\t"]

    mutating func make() -> (String, [String: String]) {
        lines = [
            "CREATE TABLE r(a, b, c);", "CREATE TABLE log(x);",
            "CREATE TRIGGER t AFTER INSERT ON r BEGIN INSERT INTO log VALUES (new.a); END;",
        ]
        for _ in 0..<Int.random(in: 8...30, using: &generator) { addStep() }
        lines.append("PRAGMA user_version = \(Int.random(in: 0...99, using: &generator));")
        return (lines.joined(separator: "\n") + "\n", files)
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &generator)! }

    private mutating func addStep() {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0, 1: lines.append(".parameter set \(pick(Self.parameterNames)) \(pick(Self.parameterValues))")
        case 2:
            lines.append(
                pick([".parameter unset \(pick(Self.parameterNames))", ".parameter clear", ".parameter init"]))
        case 3, 4: lines.append("INSERT INTO r VALUES (\(operand()), \(operand()), \(operand()));")
        case 5: addModeOrSeparator()
        case 6: addImport()
        case 7: lines.append(pick(Self.outputOnly))
        case 8: lines.append(".dbconfig enable_trigger \(pick(["on", "off"]))")
        default:
            lines.append(
                pick([
                    "UPDATE r SET c = \(operand()) WHERE a IS NULL;", "DELETE FROM r WHERE b = 'x';",
                    "INSERT INTO r SELECT count(*), sum(a), typeof(max(b)) FROM r;",
                ]))
        }
    }

    private mutating func operand() -> String {
        pick(Self.parameterNames + ["?", "1", "'x'", "NULL", "3.5"])
    }

    private mutating func addModeOrSeparator() {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            mode = pick(["csv", "list"])
            columnSeparator = mode == "csv" ? "," : "|"
            lines.append(".mode \(mode)")
        case 1:
            columnSeparator = mode == "csv" ? "," : "|" // a bare .mode re-applies the mode
            lines.append(".mode")
        default:
            let separator = pick(Self.separators)
            columnSeparator = separator == "\\t" ? "\t" : separator
            lines.append(".separator \(separator)" + (Bool.random(using: &generator) ? " \\n" : ""))
        }
    }

    private mutating func addImport() {
        let name = "data\(files.count).csv"
        let rows = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            (0..<3).map { _ in pick(["1", "22", "x", "abc", "", "3.25", "-4"]) }.joined(separator: columnSeparator)
        }
        files[name] = rows.joined(separator: "\n") + "\n"
        lines.append(".import \(name) r")
    }
}
