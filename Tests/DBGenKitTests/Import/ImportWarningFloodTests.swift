@testable import DBGenKit
import Foundation
import ShipyardTestSupport
import XCTest

/// A warning on every row (TPC-H's trailing `|`, short rows, stray quotes) costs nothing: the
/// first few of each kind are reported with their lines, the rest summed up in one line with
/// the count, the content is sqlite3's, and what the build keeps does not grow with the rows.
/// Every figure is compared with what sqlite3 printed for the same file.
final class ImportWarningFloodTests: XCTestCase {
    private let pipe: [ImportScriptCommand] = [
        .mode(["csv"]), .separator("|", nil),
        .import(file: "data.csv", table: "t", options: []),
    ]

    /// `rows` lines of `columns` fields ending with `|` (one field too many), every 7th with
    /// two extra fields, every 11th with a quoted field holding the separator.
    private func trailingSeparatorRows(_ rows: Int, columns: Int) -> String {
        var text = ""
        text.reserveCapacity(rows * columns * 8)
        for row in 1...rows {
            for column in 1...columns {
                text += row % 11 == 0 && column == 2 ? "\"a|\(row)\"|" : "\(row * column)|"
            }
            text += row % 7 == 0 ? "x|\n" : "\n"
        }
        return text
    }

    func testTrailingSeparatorFloodIsCoalescedAndImportsLikeSQLite3() throws {
        let setup = "CREATE TABLE t(a INTEGER, b TEXT, c REAL, d);"
        let outcome = try ImportDifferentialHarness.assertSameAsSQLite3(
            ImportCase("trailing", setupSQL: setup, file: trailingSeparatorRows(2000, columns: 4), commands: pipe))
        XCTAssertEqual(outcome.messages.count, ImportWarningTally.reportedPerKind + 1)
        XCTAssertEqual(
            outcome.messages.last,
            "data.csv:1: 2000 rows had 5 to 6 fields, expected 4 - extras ignored (first at line 1)")
    }

    /// Over 1 MiB the file is parsed on a second thread: the same coalescing.
    func testTrailingSeparatorFloodInABigFileIsCoalescedLikeSQLite3() throws {
        let setup = "CREATE TABLE t(a INTEGER, b TEXT, c REAL, d);"
        let text = trailingSeparatorRows(60_000, columns: 4)
        XCTAssertGreaterThan(text.utf8.count, Int(ImportSession.parallelThreshold))
        try ImportDifferentialHarness.assertSameAsSQLite3(
            ImportCase("trailing-big", setupSQL: setup, file: text, commands: pipe))
    }

    /// Short rows, long rows and unescaped quotes mixed: each kind coalesced on its own, the
    /// summaries in the order the kinds first appeared.
    func testShortRowsLongRowsAndQuotesAreCoalescedPerKind() throws {
        var text = ""
        for row in 1...3000 {
            switch row % 4 {
            case 0: text += "\(row)\n"
            case 1: text += "\(row)|\(row)x\n"
            case 2: text += "\(row)|\"q\"x\"|\(row)|more\n"
            default: text += "\(row)|2|3\n"
            }
        }
        for size in [1, 40] { // 3000 and 120,000 rows: one thread, then two
            let body = String(repeating: text, count: size)
            let outcome = try ImportDifferentialHarness.assertSameAsSQLite3(
                ImportCase("mixed-\(size)", setupSQL: "CREATE TABLE t(a, b, c);", file: body, commands: pipe))
            XCTAssertEqual(outcome.messages.count, 3 * (ImportWarningTally.reportedPerKind + 1), "\(outcome.messages)")
        }
    }

    /// Short rows only, in every shape: one field, two of three, an empty line in a CSV.
    func testShortRowFloodIsCoalescedLikeSQLite3() throws {
        let text = (1...5000).map { $0 % 3 == 0 ? "\($0)" : "\($0)|x" }.joined(separator: "\n") + "\n\n"
        let outcome = try ImportDifferentialHarness.assertSameAsSQLite3(
            ImportCase("short", setupSQL: "CREATE TABLE t(a INTEGER NOT NULL, b, c);", file: text, commands: pipe))
        XCTAssertEqual(
            outcome.messages.last,
            "data.csv:1: 5001 rows had 1 to 2 fields, expected 3 - filling the rest with NULL (first at line 1)")
    }

    /// Exactly ``ImportWarningTally/reportedPerKind`` warnings are all reported, with no
    /// summing-up line; one more gives the line.
    func testSummaryLineOnlyWhenWarningsWereLeftOut() throws {
        let shown = ImportWarningTally.reportedPerKind
        for rows in [shown, shown + 1] {
            let text = (1...rows).map { "\($0)|" }.joined(separator: "\n") + "\n"
            let outcome = try ImportDifferentialHarness.assertSameAsSQLite3(
                ImportCase("edge-\(rows)", setupSQL: "CREATE TABLE t(a);", file: text, commands: pipe))
            XCTAssertEqual(outcome.messages.count, rows == shown ? shown : shown + 1)
        }
    }

    /// The build keeps the same few lines for a thousand warned rows as for three hundred
    /// thousand; the counts (and `--json`'s) equal the lines sqlite3 printed.
    func testWhatTheBuildKeepsDoesNotGrowWithTheRows() throws {
        for rows in [1_000, 300_000] {
            let directory = try TemporaryDirectory("flood", removedAfter: self)
            let text = (1...rows).map { $0 % 100 == 0 ? "\($0)" : "\($0)|\($0)|" }.joined(separator: "\n") + "\n"
            try directory.write("data.csv", text)
            try directory.write("schema.txt", "CREATE TABLE t(a, b);\n.mode csv\n.separator |\n.import data.csv t\n")
            var options = BuildOptions(
                schema: directory.url("schema.txt").path, output: directory.url("out.sqlite").path)
            options.force = true
            options.cacheDirectory = nil
            var handled = 0
            options.diagnosticHandler = { _ in handled += 1 }
            let summary = try DatabaseBuilder.build(options)

            let shell = try Oracle.sqlite3.run(
                [directory.url("expected.sqlite").path], in: directory.url,
                stdin: "CREATE TABLE t(a, b);\n.mode csv\n.separator |\n.import data.csv t\n")
            let printed = shell.stderrText.split(separator: "\n").map(String.init)
            let parsed = printed.compactMap(ImportDifferentialHarness.ShellRowWarning.init)
            XCTAssertEqual(parsed.count, printed.count, "every line sqlite3 printed is a row warning")
            var expected: [ImportWarningCount] = []
            for warning in parsed {
                if let index = expected.firstIndex(where: { $0.kind == warning.kind }) {
                    expected[index].count += 1
                } else {
                    expected.append(
                        ImportWarningCount(
                            file: directory.url("data.csv").path, kind: warning.kind, count: 1,
                            firstLine: warning.line))
                }
            }
            XCTAssertEqual(summary.importWarnings, expected)
            XCTAssertEqual(summary.warningCount, printed.count)
            XCTAssertEqual(handled, 2 * (ImportWarningTally.reportedPerKind + 1), "rows: \(rows)")
            XCTAssertEqual(summary.warnings.count, handled)
            let json = try JSONSerialization.jsonObject(with: summary.jsonData()) as? [String: Any]
            XCTAssertEqual(json?["warningCount"] as? Int, printed.count)
            let counts = json?["importWarnings"] as? [[String: Any]]
            XCTAssertEqual(counts?.map { $0["count"] as? Int }, expected.map(\.count))
            XCTAssertEqual(counts?.map { $0["kind"] as? String }, expected.map(\.kind.rawValue))
            XCTAssertEqual(
                try ImportDifferentialHarness.dump(directory.url("out.sqlite")),
                try ImportDifferentialHarness.dump(directory.url("expected.sqlite")))
        }
    }

    /// `--strict` stops at the first warning of a flood, the one sqlite3 prints first.
    func testStrictStopsAtTheFirstWarningOfAFlood() throws {
        let directory = try TemporaryDirectory("flood-strict", removedAfter: self)
        let text = (1...200_000).map { "\($0)|" }.joined(separator: "\n") + "\n"
        try directory.write("data.csv", text)
        let script = "CREATE TABLE t(a);\n.mode csv\n.separator |\n.import data.csv t\n"
        try directory.write("schema.txt", script)
        var options = BuildOptions(schema: directory.url("schema.txt").path, output: directory.url("out.sqlite").path)
        options.strict = true
        options.cacheDirectory = nil
        let shell = try Oracle.sqlite3.run([":memory:"], in: directory.url, stdin: script)
        let first = try XCTUnwrap(shell.stderrText.split(separator: "\n").first.map(String.init))
        XCTAssertThrowsError(try DatabaseBuilder.build(options)) { error in
            let error = error as? DBGenError
            XCTAssertEqual(error?.code, .warningAsError)
            let location = error?.location
            XCTAssertEqual(location?.path, directory.url("data.csv").path)
            // The shell's first warning, as the error --strict makes it (no "filling the rest").
            XCTAssertEqual(
                error.map { "data.csv:\(location?.line ?? 0): \($0.message)" }, DatabaseBuilder.strictMessage(first))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("out.sqlite").path))
    }
}
