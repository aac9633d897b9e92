import CShellExtensions
import CSQLite
import Foundation
import ShipyardTestSupport
import XCTest

/// What one query produced: its rows (columns joined by "|", NULL as "", as the shell's
/// list mode prints them) and the first error message, if any.
struct QueryOutcome: Equatable, CustomStringConvertible {
    var rows: [String]
    var error: String?
    var description: String { "rows: \(rows), error: \(error ?? "none")" }
}

/// Collects the paths the extensions report through `record_input`.
final class InputRecorder {
    var paths: [String] = []
}

/// A scratch directory (symlinks resolved, as the shell reports paths), removed when the test ends.
func makeScratchDirectory(_ test: XCTestCase) throws -> URL {
    try TemporaryDirectory("shellfs", removedAfter: test).url.resolvingSymlinksInPath()
}

/// Runs `sql` on an in-memory connection with only the file extensions registered.
/// `baseDirectory` is the environment's base directory; reads are appended to `recorder`.
func runOurs(_ sql: String, baseDirectory: String?, recorder: InputRecorder = InputRecorder()) -> QueryOutcome {
    var db: OpaquePointer?
    guard sqlite3_open(":memory:", &db) == SQLITE_OK else { return QueryOutcome(rows: [], error: "open failed") }
    defer { sqlite3_close(db) }
    let base = baseDirectory.map { strdup($0) } ?? nil
    defer { free(base) }
    let context = Unmanaged.passUnretained(recorder).toOpaque()
    var environment = shipyard_shell_environment(
        base_directory: base.map { UnsafePointer($0) },
        record_input: { context, path in
            guard let context, let path else { return }
            Unmanaged<InputRecorder>.fromOpaque(context).takeUnretainedValue().paths.append(String(cString: path))
        },
        context: context)
    let rc = withUnsafeMutablePointer(to: &environment) { shipyard_register_file_extensions(db, $0) }
    guard rc == SQLITE_OK else { return QueryOutcome(rows: [], error: "registration failed: \(rc)") }
    return withExtendedLifetime(environment) { execute(sql, on: db) }
}

/// Executes every statement of `sql` on `db`, stopping at the first error.
func execute(_ sql: String, on db: OpaquePointer?) -> QueryOutcome {
    var outcome = QueryOutcome(rows: [], error: nil)
    var remaining = sql
    while !remaining.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        var statement: OpaquePointer?
        var tail: String = ""
        let rc = remaining.withCString { text -> Int32 in
            var end: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(db, text, -1, &statement, &end)
            if let end { tail = String(cString: end) }
            return rc
        }
        guard rc == SQLITE_OK else { outcome.error = String(cString: sqlite3_errmsg(db)); return outcome }
        remaining = tail
        guard let statement else { continue }
        defer { sqlite3_finalize(statement) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { outcome.error = String(cString: sqlite3_errmsg(db)); return outcome }
            let count = sqlite3_column_count(statement)
            let values = (0..<count).map { column -> String in
                guard let text = sqlite3_column_text(statement, column) else { return "" }
                return String(cString: text)
            }
            outcome.rows.append(values.joined(separator: "|"))
        }
    }
    return outcome
}

/// Runs `sql` through the real sqlite3 shell (the oracle) with `directory` as its cwd.
func runShell(_ sql: String, in directory: URL) throws -> QueryOutcome {
    let result = try Oracle.sqlite3.run(["-batch", ":memory:", sql], in: directory)
    var rows = result.stdoutText.components(separatedBy: "\n")
    if rows.last == "" { rows.removeLast() }
    var error: String?
    if let line = result.stderrText.components(separatedBy: "\n").first, !line.isEmpty {
        var message = line
        for prefix in ["Error: stepping, ", "Error: in prepare, ", "Error: near line 1: ", "Error: "]
        where message.hasPrefix(prefix) {
            message.removeFirst(prefix.count)
            break
        }
        if let range = message.range(of: #" \(\d+\)$"#, options: .regularExpression) { message.removeSubrange(range) }
        error = message
    }
    return QueryOutcome(rows: rows, error: error)
}

/// Runs a python3 script (the second oracle, used to build zip archives) in `directory`.
func runPython(_ script: String, in directory: URL) throws {
    _ = try Oracle.python3.output(["-c", script], in: directory)
}

/// Asserts that `sql` gives the same rows and error through our extensions (with `directory`
/// as the base directory, run from elsewhere) and through the shell run inside `directory`.
@discardableResult
func assertSameAsShell(_ sql: String, in directory: URL, file: StaticString = #filePath, line: UInt = #line) throws
    -> QueryOutcome
{
    let expected = try runShell(sql, in: directory)
    let actual = runOurs(sql, baseDirectory: directory.path)
    XCTAssertEqual(actual, expected, "query: \(sql)", file: file, line: line)
    return actual
}
