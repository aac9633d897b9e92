import CSQLite
import DBGenKit
import Foundation
import XCTest

/// A manual benchmark, skipped unless `DBGEN_IMPORT_BENCH` names a directory holding the
/// `food.csv` of `python3 /work/shared/bench/gen_food.py ROWS DIR`. Run it in release:
/// `DBGEN_IMPORT_BENCH=/tmp/bench swift test -c release --filter ImportBenchmarkTests`
/// (`DBGEN_IMPORT_BENCH_KEEP=1` keeps `bench-out.sqlite` there to compare with sqlite3's).
final class ImportBenchmarkTests: XCTestCase {
    func testImportFoodBenchmark() throws {
        guard let directory = ProcessInfo.processInfo.environment["DBGEN_IMPORT_BENCH"] else {
            throw XCTSkip("set DBGEN_IMPORT_BENCH to a directory made by gen_food.py")
        }
        let output = URL(fileURLWithPath: directory).appendingPathComponent("bench-out.sqlite")
        try? FileManager.default.removeItem(at: output)
        defer {
            if ProcessInfo.processInfo.environment["DBGEN_IMPORT_BENCH_KEEP"] == nil {
                try? FileManager.default.removeItem(at: output)
            }
        }
        let db = try ImportDifferentialHarness.open(output)
        defer { sqlite3_close(db) }
        try ImportDifferentialHarness.exec(db, """
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;
            CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT, "kcal" REAL);
            """)
        var settings = ShellOutputSettings()
        try settings.setMode("csv")
        settings.setSeparator(column: "|", row: nil)
        let request = ImportRequest(file: URL(fileURLWithPath: directory).appendingPathComponent("food.csv"),
                                    displayPath: "food.csv", table: "food", format: try settings.importFormat())
        var warnings = 0
        let before = Self.peakResidentMiB()
        let cpuBefore = Self.processCPUSeconds()
        let start = Date()
        let result = try CSVImporter.run(request, into: db, diagnostics: { _ in warnings += 1 })
        let seconds = Date().timeIntervalSince(start)
        let cpu = Self.processCPUSeconds() - cpuBefore
        print(String(format: "import: %d rows in %.3f s (%.0f rows/s, %.3f s CPU), %d warnings, peak RSS %.1f MiB (%.1f MiB before the import)",
                     result.rowsInserted, seconds, Double(result.rowsInserted) / seconds, cpu, warnings,
                     Self.peakResidentMiB(), before))
    }

    /// User + system CPU time of the whole process (all threads).
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Linux: the peak resident set since the last call (VmHWM, reset through clear_refs);
    /// elsewhere the process's peak.
    private static func peakResidentMiB() -> Double {
        #if os(Linux)
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return kilobytes / 1024
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1024 / 1024
        #endif
    }
}
