@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Seeded random files, imported by sqlite3 and by dbgen's build: the content and the
/// warnings must agree. Deterministic: the same seeds give the same files on every run.
final class ImportRandomizedTests: XCTestCase {
    /// Random bytes drawn from separators, quotes, CR, LF, unicode, digits and spaces, with
    /// a bias towards well-formed quoted fields so that most files import without error.
    private func randomFile(seed: UInt64, columnSeparator: String, rowSeparator: String) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        let pieces = [
            columnSeparator, rowSeparator, "\"", "\"\"", "\r", "\n", "\r\n", " ", "0", "7", "12", "-3", "1e3",
            "x", "abc", "é", "e\u{301}", "🧑‍🚀", "豆腐", "|", ",", "\t", "''",
        ]
        var text = ""
        let records = Int.random(in: 5...40, using: &generator)
        for _ in 0..<records {
            let fields = Int.random(in: 1...6, using: &generator)
            for index in 0..<fields {
                if index > 0 { text += columnSeparator }
                var field = ""
                for _ in 0..<Int.random(in: 0...5, using: &generator) {
                    field += pieces.randomElement(using: &generator)!
                }
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<4:
                    text += "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                case 4..<9:
                    text += field.filter {
                        !"\"\n\r".contains($0) && String($0) != columnSeparator && String($0) != rowSeparator
                    }
                default:
                    text += field
                }
            }
            text += Bool.random(using: &generator) ? rowSeparator : "\r" + rowSeparator
        }
        if Bool.random(using: &generator) { text.removeLast() }
        return Array(text.utf8)
    }

    private func run(
        seeds: ClosedRange<UInt64>, setupSQL: String, commands: [ImportScriptCommand],
        columnSeparator: String, rowSeparator: String
    ) throws {
        var stopped = 0
        for seed in seeds {
            let file = randomFile(seed: seed, columnSeparator: columnSeparator, rowSeparator: rowSeparator)
            let testCase = ImportCase("seed \(seed)", setupSQL: setupSQL, files: ["data.csv": file], commands: commands)
            // sqlite3 carries on where dbgen stops (unterminated quotes, failed inserts): then
            // only the messages up to dbgen's error are compared.
            let outcome = try ImportDifferentialHarness.assertSameAsSQLite3(testCase, allowError: true)
            if outcome.error != nil { stopped += 1 }
        }
        // Most files must import completely, or the content comparison proves little.
        XCTAssertLessThanOrEqual(stopped, seeds.count / 3, "too many random files stopped with an error")
    }

    func testRandomPipeSeparatedFilesInCSVMode() throws {
        try run(
            seeds: 1...12, setupSQL: "CREATE TABLE t(a INTEGER, b, c TEXT, d REAL);",
            commands: [.mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "t", options: [])],
            columnSeparator: "|", rowSeparator: "\n")
    }

    func testRandomCommaFilesCreatingTheTable() throws {
        try run(
            seeds: 100...108, setupSQL: "",
            commands: [.mode(["csv"]), .import(file: "data.csv", table: "made", options: [])],
            columnSeparator: ",", rowSeparator: "\n")
    }

    func testRandomTabFilesWithSkip() throws {
        try run(
            seeds: 200...206, setupSQL: "CREATE TABLE t(a, b NUMERIC);",
            commands: [.mode(["tabs"]), .import(file: "data.csv", table: "t", options: ["--skip", "1"])],
            columnSeparator: "\t", rowSeparator: "\n")
    }

    func testRandomAsciiFiles() throws {
        try run(
            seeds: 300...306, setupSQL: "CREATE TABLE t(a, b, c);",
            commands: [.mode(["ascii"]), .import(file: "data.csv", table: "t", options: [])],
            columnSeparator: "\u{1F}", rowSeparator: "\u{1E}")
    }
}

/// A file of several megabytes (fields and quotes across the reader's 1 MiB reads), like the
/// benchmark's food data, compared with sqlite3.
final class ImportLargeFileTests: XCTestCase {
    func testMultiMegabyteFoodFileMatchesSQLite3() throws {
        var text = ""
        let words = ["apple", "cheese, sliced", "\"whole\"", "a|b", "café", "豆腐", "line\nbreak", "crème brûlée"]
        var generator = SeededGenerator(seed: 42)
        func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
        for pk in 1...60_000 {
            var name = (0..<(1 + next(4))).map { _ in words[next(words.count)] }.joined(separator: " ")
            if name.contains(where: { "|\"\n".contains($0) }) || next(20) == 0 {
                name = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            text += "\(pk)|\(next(25))|\(name)|\(next(90000)).\(next(100))\(next(50) == 0 ? "|extra" : "")\n"
        }
        XCTAssertGreaterThan(text.utf8.count, 2 << 20)
        try ImportDifferentialHarness.assertSameAsSQLite3(
            ImportCase(
                "large",
                setupSQL: #"CREATE TABLE food("pk" INTEGER PRIMARY KEY, "group" INTEGER, "name" TEXT, "kcal" REAL);"#,
                file: text,
                commands: [.mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "food", options: [])])
        )
    }
}

/// Big files are parsed on a second thread: errors and throwing warning handlers still stop
/// the import at the right record, and nothing is left running.
final class ImportParallelStopTests: XCTestCase {
    private func bigFile(duplicateAt: Int?, shortAt: Int?) -> String {
        var text = ""
        for key in 1...200_000 {
            let value = key == duplicateAt ? 1 : key
            text += key == shortAt ? "\(value)\n" : "\(value)|\"text, \(key)\"\n"
        }
        return text
    }

    private func run(_ text: String, warnings: @escaping (Diagnostic) throws -> Void) throws -> Connection {
        let directory = try TemporaryDirectory("import-parallel", removedAfter: self)
        let file = try directory.write("big.csv", text)
        let db = try ImportDifferentialHarness.open(directory.url("out.sqlite"))
        try ImportDifferentialHarness.exec(db, "CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);")
        let request = ImportRequest(
            file: file, displayPath: "big.csv", table: "t",
            format: ImportFormat(quoting: .csv, columnSeparator: UInt8(ascii: "|"), rowSeparator: 10))
        _ = try CSVImporter.run(request, into: db, diagnostics: warnings)
        return db
    }

    func testFailedInsertInABigFileStopsAtItsLine() throws {
        XCTAssertThrowsError(try run(bigFile(duplicateAt: 150_000, shortAt: nil), warnings: { _ in })) { error in
            XCTAssertEqual("\(error)", "big.csv:150000: error: INSERT failed: UNIQUE constraint failed: t.k")
        }
    }

    func testThrowingHandlerInABigFileStopsAtTheFirstWarning() throws {
        struct Stop: Error {}
        var seen: [String] = []
        XCTAssertThrowsError(
            try run(
                bigFile(duplicateAt: nil, shortAt: 120_000),
                warnings: {
                    seen.append("\($0)"); throw Stop()
                }))
        XCTAssertEqual(seen, ["big.csv:120000: warning: expected 2 columns but found 1 - filling the rest with NULL"])
    }

    func testBigFileImportsEveryRow() throws {
        var seen: [String] = []
        let db = try run(bigFile(duplicateAt: nil, shortAt: 7), warnings: { seen.append("\($0)") })
        XCTAssertEqual(seen, ["big.csv:7: warning: expected 2 columns but found 1 - filling the rest with NULL"])
        XCTAssertEqual(
            try ImportDifferentialHarness.query(db, "SELECT count(*), sum(k), count(v) FROM t"),
            [["200000", "20000100000", "199999"]])
    }
}
