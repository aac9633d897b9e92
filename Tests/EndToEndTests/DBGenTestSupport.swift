import Foundation
import ShipyardTestSupport
import XCTest

/// Helpers for dbgen's end-to-end tests: writing inputs, running dbgen and the sqlite3 oracle,
/// and dumping a database's content (schema, rows with types, user_version) through sqlite3.
enum DBGenTestSupport {
    /// Writes `text` to `name` (creating directories) under `directory`.
    @discardableResult
    static func write(_ text: String, to name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Runs dbgen in `directory`.
    @discardableResult
    static func dbgen(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws
        -> ProcessResult
    {
        try BuiltProducts.run("dbgen", arguments, in: directory, environment: environment)
    }

    /// `sqlite3 OUTPUT < SCHEMA`, run in `directory` (the shell resolves paths against it).
    static func sqlite3Build(schema: String, output: String, in directory: URL) throws -> ProcessResult {
        let script = try Data(contentsOf: directory.appendingPathComponent(schema))
        return try Oracle.sqlite3.run(["-batch", output], in: directory, input: script)
    }

    /// Runs SQL through sqlite3 on `database` and returns stdout (fails the test on stderr output).
    static func query(_ database: URL, _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let result = try Oracle.sqlite3.run(["-batch", database.path], stdin: sql)
        XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
        XCTAssertEqual(result.stderrText, "", file: file, line: line)
        return result.stdoutText
    }

    /// Everything that makes up a database's content, as text: user_version, application_id,
    /// sqlite_schema (type, name, tbl_name, sql) and every table's rows in quote mode (which keeps
    /// each value's type: 1 vs 1.0 vs '1' vs X'01' vs NULL).
    static func content(of database: URL) throws -> String {
        var text = try query(
            database,
            """
            PRAGMA user_version; PRAGMA application_id;
            .mode quote
            SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name;
            """)
        let tables = try query(database, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name;")
            .split(separator: "\n").map(String.init)
        var selects = ".mode quote\n"
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            selects +=
                "SELECT 'table', \(quoted == "" ? "" : "'" + table.replacingOccurrences(of: "'", with: "''") + "'");\n"
            selects += "SELECT * FROM \(quoted);\n"
        }
        text += try query(database, selects)
        return text
    }

    /// The bytes of a file (empty when missing).
    static func bytes(_ url: URL) -> Data {
        (try? Data(contentsOf: url)) ?? Data()
    }

    /// The inode of a file, to see whether it was replaced.
    static func inode(_ url: URL) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    static func modificationDate(_ url: URL) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date
    }

    /// Files in `directory` whose name starts with `prefix` (stray temporaries).
    static func files(in directory: URL, prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(prefix) }
    }
}
