import CShellExtensions
import CSQLite
import Foundation
import ShipyardTestSupport
import XCTest

/// An in-memory connection with the shell extensions registered, which runs SQL and prints
/// the result the way the sqlite3 shell's default list mode does, so the two can be compared.
final class ExtensionConnection {
    private var db: OpaquePointer?
    private var environment = shipyard_shell_environment(base_directory: nil, record_input: nil, context: nil)

    /// Opens `:memory:` and registers the extensions; fails the calling test if either fails.
    init(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK, file: file, line: line)
        XCTAssertEqual(shipyard_register_shell_extensions(db, &environment), SQLITE_OK, file: file, line: line)
    }

    deinit { sqlite3_close(db) }

    /// Registers a test-only readfile(NAME) returning the bytes of `directory`/NAME (NULL if
    /// absent), standing in for the shell's readfile run in that directory.
    func registerReadfile(directory: String) {
        sqlite3_create_function_v2(
            db, "readfile", 1, SQLITE_UTF8, strdup(directory),
            { context, _, argv in
                guard let base = sqlite3_user_data(context), let argv, let name = sqlite3_value_text(argv[0]) else {
                    return
                }
                let path = String(cString: base.assumingMemoryBound(to: CChar.self)) + "/" + String(cString: name)
                guard let data = FileManager.default.contents(atPath: path) else { return }
                data.withUnsafeBytes { bytes in
                    sqlite3_result_blob64(
                        context, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(bytes.count),
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }, nil, nil, { free($0) })
    }

    /// Runs every statement of `sql` and returns the rows ("a|b" lines) and, for a statement
    /// that fails, "ERROR: message" in its place; later statements still run, as in the shell.
    func output(of sql: String) -> String {
        var output = [UInt8]()
        sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var stmt: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                if sqlite3_prepare_v2(db, current, -1, &stmt, &tail) != SQLITE_OK {
                    output += Array("ERROR: \(String(cString: sqlite3_errmsg(db)))\n".utf8)
                    sqlite3_finalize(stmt)
                    return
                }
                next = tail
                guard let stmt else { continue }
                step(stmt, into: &output)
                sqlite3_finalize(stmt)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Steps `stmt` to completion, appending each row, then the error if stepping failed.
    private func step(_ stmt: OpaquePointer, into output: inout [UInt8]) {
        var rc = sqlite3_step(stmt)
        while rc == SQLITE_ROW {
            for i in 0..<sqlite3_column_count(stmt) {
                if i > 0 { output.append(UInt8(ascii: "|")) }
                if let text = sqlite3_column_text(stmt, i) {
                    output += Array(
                        UnsafeBufferPointer(
                            start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))))
                }
            }
            output.append(UInt8(ascii: "\n"))
            rc = sqlite3_step(stmt)
        }
        if rc != SQLITE_DONE {
            output += Array("ERROR: \(String(cString: sqlite3_errmsg(db)))\n".utf8)
        }
    }
}

/// The real sqlite3 3.40.1 shell, run once over a batch of cases.
enum ShellOracle {
    /// Runs each case (one or more SQL statements) in one `sqlite3 :memory:` process, in order
    /// on the same connection, and returns each case's normalised output. Throws if the shell
    /// is missing or does not run: a missing oracle fails the test.
    static func outputs(of cases: [String], directory: URL? = nil) throws -> [String] {
        var script = ""
        for (i, sql) in cases.enumerated() { script += ".print #CASE \(i)\n\(sql)\n;\n" }
        script += ".print #CASE end\n"
        // Line-buffered output (stdbuf) with stderr in the same file keeps rows and errors in order.
        let stdbuf = "/usr/bin/stdbuf"
        guard FileManager.default.isExecutableFile(atPath: stdbuf) else {
            throw OracleError.missing("\(stdbuf) is not installed")
        }
        let raw = try ProcessRunner.runInterleaved(
            stdbuf, ["-oL", try Oracle.sqlite3.path(), "-init", "/dev/null", ":memory:"],
            in: directory, input: Data(script.utf8)
        ).output
        return try split(raw, count: cases.count)
    }

    /// Splits the shell's output at the case markers and rewrites its error reports to
    /// "ERROR: message" (dropping a parse error's quoted SQL and caret lines).
    private static func split(_ raw: String, count: Int) throws -> [String] {
        var results = [String](), current: String?, inParseError = false
        for line in raw.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#CASE ") {
                if let current { results.append(current) }
                current = ""
                inParseError = false
                continue
            }
            if inParseError && line.hasPrefix("  ") { continue }
            inParseError = false
            var text = line
            if let range = line.range(of: #"^(Runtime|Parse) error near line [0-9]+: "#, options: .regularExpression) {
                inParseError = line.hasPrefix("Parse")
                text = "ERROR: " + line[range.upperBound...]
            }
            current? += text + "\n"
        }
        guard results.count == count else { throw OracleError.missing("the shell's output lost case markers:\n\(raw)") }
        return results
    }

    enum OracleError: Error { case missing(String) }
}

extension XCTestCase {
    /// Runs every case through the extensions and through the shell, asserting identical output.
    /// `prepare` may add test-only functions to our connection before the cases run;
    /// `directory` is the shell's working directory.
    func assertMatchesShell(
        _ cases: [String], directory: URL? = nil, prepare: (ExtensionConnection) -> Void = { _ in },
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let expected = try ShellOracle.outputs(of: cases, directory: directory)
        let connection = ExtensionConnection(file: file, line: line)
        prepare(connection)
        var failures = 0
        for (sql, want) in zip(cases, expected) {
            let got = connection.output(of: sql)
            if got != want && failures < 30 {
                failures += 1
                if let dump = ProcessInfo.processInfo.environment["SHELLMATH_DUMP"] {
                    try? Data(want.utf8).write(to: URL(fileURLWithPath: "\(dump)-\(failures)-shell.txt"))
                    try? Data(got.utf8).write(to: URL(fileURLWithPath: "\(dump)-\(failures)-ours.txt"))
                }
                XCTFail(
                    "\(sql)\n  shell: \(want.debugDescription)\n  ours:  \(got.debugDescription)", file: file,
                    line: line)
            }
        }
    }

    /// Cases `select <column expressions>` for each expression of `exprs`, each wrapped as
    /// quote(e), typeof(e) so that type and value both count.
    func selectCases(_ exprs: [String]) -> [String] {
        exprs.map { "select quote(\($0)), typeof(\($0));" }
    }
}

/// SQL text literal for `s` ('' doubled).
func sqlLiteral(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
