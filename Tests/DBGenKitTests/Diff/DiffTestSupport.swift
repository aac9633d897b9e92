import DBGenKit
import Foundation
import ShipyardTestSupport
import XCTest

/// Applying patches with the sqlite3 shell and comparing results, for the diff tests.
enum DiffTestSupport {
    /// A copy of `database` at `copy` with `patch` run on it by `sqlite3 -bail`.
    @discardableResult
    static func applied(_ patch: String, to database: String, copy: String, bail: Bool = true) throws -> String {
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        if bail {
            _ = try Oracle.sqlite3Script(copy, patch)
        } else {
            try Oracle.sqlite3.run(["-batch", copy], stdin: patch)
        }
        return copy
    }

    /// The dump section of one table (its rows), from ``DatabaseContent/dump(_:)``.
    static func tableSection(_ dump: String, _ table: String) -> String {
        var lines: [Substring] = [], inside = false
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("table ") { inside = line == "table \(table)"; continue }
            if inside { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }

    /// dbgen's patch for the pair.
    static func patch(_ old: String, _ new: String, table: String? = nil) throws -> String {
        try DatabaseDiff(oldPath: old, newPath: new, table: table).patch()
    }

    /// sqldiff's patch for the pair.
    static func sqldiffPatch(_ old: String, _ new: String, summary: Bool = false) throws -> String {
        try Oracle.sqldiff.output((summary ? ["--summary"] : []) + [old, new])
    }
}

/// Fails with the first lines where two dumps differ (not the whole dumps).
func assertSameContent(
    _ actual: String, _ expected: String, _ message: String, file: StaticString = #filePath, line: UInt = #line
) {
    guard actual != expected else { return }
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let first = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
    let section = e[..<min(first, e.count)].last { $0.hasPrefix("table ") } ?? "(schema)"
    XCTFail(
        "\(message): content differs in \(section) at line \(first): got \(first < a.count ? String(a[first]) : "<end>"), expected \(first < e.count ? String(e[first]) : "<end>")",
        file: file, line: line)
}
