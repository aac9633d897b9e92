import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen` on a file whose every row warns (TPC-H's trailing `|`), as a user runs it: a few
/// lines on stderr instead of one a row, counts in `--json`, sqlite3's content, and a peak
/// memory that does not grow with the rows (before, each warned row kept a few hundred bytes:
/// 400,000 rows went far past the bound).
final class DBGenWarningFloodTests: XCTestCase {
    static let rows = 400_000
    /// The bound on dbgen's peak resident memory, whatever the number of warned rows.
    static let peakMemoryBound = 64 << 20

    /// Runs dbgen under python3's `os.wait4`, which gives the child's own peak RSS; returns
    /// the exit status, the peak in bytes, stdout and stderr.
    private func dbgenMeasured(_ arguments: [String], in directory: URL) throws
        -> (status: Int, peak: Int, stdout: String, stderr: String)
    {
        let measure = """
            import os, subprocess, sys
            with open("dbgen.out", "wb") as out, open("dbgen.err", "wb") as err:
                child = subprocess.Popen(sys.argv[1:], stdout=out, stderr=err)
                _, status, usage = os.wait4(child.pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let result = try Oracle.python3.run(["-c", measure, BuiltProducts.path("dbgen")] + arguments, in: directory)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let figures = result.stdoutText.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        XCTAssertEqual(figures.count, 2, result.stdoutText)
        #if os(Linux)
        let unit = 1024 // ru_maxrss is in KiB on Linux, in bytes on Darwin
        #else
        let unit = 1
        #endif
        return (
            figures.first ?? -1, (figures.last ?? 0) * unit,
            String(decoding: DBGenTestSupport.bytes(directory.appendingPathComponent("dbgen.out")), as: UTF8.self),
            String(decoding: DBGenTestSupport.bytes(directory.appendingPathComponent("dbgen.err")), as: UTF8.self)
        )
    }

    func testAFloodOfWarningsPrintsAFewLinesCountsInJSONAndStaysSmall() throws {
        let dir = try TemporaryDirectory("dbgen-flood", removedAfter: self).url
        var data = ""
        data.reserveCapacity(Self.rows * 10)
        for row in 1...Self.rows {
            data += row % 1000 == 0 ? "\(row)\n" : "\(row)|x\(row)|\n"
        }
        try DBGenTestSupport.write(data, to: "data/rows.tbl", in: dir)
        try DBGenTestSupport.write(
            "CREATE TABLE t(a INTEGER, b TEXT);\n.separator |\n.import rows.tbl t\n",
            to: "data/schema.txt", in: dir)

        let run = try dbgenMeasured(["data/schema.txt", "-o", "out.sqlite", "--json"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThanOrEqual(run.peak, Self.peakMemoryBound, "peak RSS \(run.peak >> 20) MiB")

        let shell = try DBGenTestSupport.sqlite3Build(
            schema: "schema.txt", output: "../expected.sqlite",
            in: dir.appendingPathComponent("data"))
        let shellLines = shell.stderrText.split(separator: "\n").map(String.init)
        let extras = shellLines.filter { $0.hasSuffix(" - extras ignored") }
        let missing = shellLines.filter { $0.hasSuffix(" - filling the rest with NULL") }
        XCTAssertEqual(extras.count + missing.count, shellLines.count, "sqlite3 printed only row warnings")
        XCTAssertEqual(
            try DBGenTestSupport.content(of: dir.appendingPathComponent("out.sqlite")),
            try DBGenTestSupport.content(of: dir.appendingPathComponent("expected.sqlite")))

        // stderr: sqlite3's first five of each kind (dbgen says "warning:" and the path as the
        // script names it), then one line per kind with the count.
        func asDBGen(_ line: String) -> String {
            let parts = line.split(separator: ":", maxSplits: 2)
            return "data/\(parts[0]):\(parts[1]): warning:\(parts[2])"
        }
        let firstExtra = try XCTUnwrap(extras.first?.split(separator: ":")[1])
        let firstMissing = try XCTUnwrap(missing.first?.split(separator: ":")[1])
        let printed = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            printed,
            extras.prefix(5).map(asDBGen) + missing.prefix(5).map(asDBGen) + [
                "data/rows.tbl:\(firstExtra): warning: \(extras.count) rows had 3 fields, expected 2 - extras ignored (first at line \(firstExtra))",
                "data/rows.tbl:\(firstMissing): warning: \(missing.count) rows had 1 field, expected 2 - filling the rest with NULL (first at line \(firstMissing))",
            ])

        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["warningCount"] as? Int, shellLines.count)
        XCTAssertEqual((json["warnings"] as? [String])?.count, 12)
        let counts = try XCTUnwrap(json["importWarnings"] as? [[String: Any]])
        XCTAssertEqual(counts.map { $0["file"] as? String }, ["data/rows.tbl", "data/rows.tbl"])
        XCTAssertEqual(counts.map { $0["kind"] as? String }, ["extra-fields", "missing-fields"])
        XCTAssertEqual(counts.map { $0["count"] as? Int }, [extras.count, missing.count])
        XCTAssertEqual(counts.map { $0["firstLine"] as? Int }, [Int(firstExtra), Int(firstMissing)])
    }

    func testStrictFailsAtTheFirstWarningOfAFlood() throws {
        let dir = try TemporaryDirectory("dbgen-flood-strict", removedAfter: self).url
        try DBGenTestSupport.write(
            (1...50_000).map { "\($0)|\($0)|" }.joined(separator: "\n") + "\n", to: "rows.tbl", in: dir)
        try DBGenTestSupport.write(
            "CREATE TABLE t(a, b);\n.separator |\n.import rows.tbl t\n", to: "schema.txt", in: dir)
        let result = try DBGenTestSupport.dbgen(["schema.txt", "-o", "out.sqlite", "--strict"], in: dir)
        let shell = try DBGenTestSupport.sqlite3Build(schema: "schema.txt", output: "expected.sqlite", in: dir)
        let first = try XCTUnwrap(shell.stderrText.split(separator: "\n").first).split(separator: ":", maxSplits: 2)
        XCTAssertEqual(result.status, 1)
        // The shell's first warning, as the error --strict makes it: the extras are not ignored,
        // nothing is written.
        let warning = first[2].replacingOccurrences(of: " - extras ignored", with: "")
        XCTAssertEqual(
            result.stderrText,
            "\(first[0]):\(first[1]): error:\(warning)"
                + " (an error under --strict: nothing is written, the output is left as it was)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sqlite").path))
    }
}
