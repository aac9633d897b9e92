@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// One `.mode`, `.separator` or `.import` line of a differential case.
enum ImportScriptCommand {
    case mode([String])
    case separator(String, String?)
    /// `.import [options] FILE TABLE`; options as the shell takes them (`--csv`, `--skip 1`…).
    case `import`(file: String, table: String, options: [String])

    var shellText: String {
        switch self {
        case .mode(let arguments):
            return ".mode " + arguments.joined(separator: " ")
        case .separator(let column, let row):
            return ".separator " + Self.argument(column) + (row.map { " " + Self.argument($0) } ?? "")
        case .import(let file, let table, let options):
            return ".import " + (options + [file, table]).map(Self.argument).joined(separator: " ")
        }
    }

    /// Double-quoted (the shell resolves backslash escapes there as in unquoted words).
    private static func argument(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A differential case: the same script (SQL and dot-commands) given to the sqlite3 shell and
/// to dbgen's build (the code path the CLI runs), then both databases and both sets of
/// warnings compared.
struct ImportCase {
    var name: String
    var setupSQL: String = ""
    var files: [String: [UInt8]] = [:]
    var commands: [ImportScriptCommand]
    /// SQL run after the imports on both sides (e.g. to copy a temp table into main).
    var finalSQL: String = ""

    init(
        _ name: String, setupSQL: String = "", files: [String: [UInt8]], commands: [ImportScriptCommand],
        finalSQL: String = ""
    ) {
        self.name = name
        self.setupSQL = setupSQL
        self.files = files
        self.commands = commands
        self.finalSQL = finalSQL
    }

    init(_ name: String, setupSQL: String = "", file: String, commands: [ImportScriptCommand], finalSQL: String = "") {
        self.init(
            name, setupSQL: setupSQL, files: ["data.csv": Array(file.utf8)], commands: commands, finalSQL: finalSQL)
    }
}

/// What one side produced.
struct ImportOutcome: Equatable {
    var content: [String]
    var messages: [String]
    /// dbgen stopped with this error (its message is the last of `messages`).
    var error: DBGenError?
}

enum ImportDifferentialHarness {
    /// Runs the case on both sides and asserts equal content and warnings. With `expectingError`,
    /// sqlite3 reports an error there and carries on, and dbgen must stop with the same
    /// message at the same place (warnings before it equal, content not compared).
    @discardableResult
    static func assertSameAsSQLite3(
        _ testCase: ImportCase, expectingError: Bool = false, allowError: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ImportOutcome {
        let directory = try TemporaryDirectory("import-diff")
        for (name, bytes) in testCase.files {
            try directory.write(name, Data(bytes))
        }
        let expected = try runSQLite3(testCase, in: directory.url)
        let actual = try runDBGen(testCase, in: directory.url)
        if expectingError || (allowError && actual.error != nil) {
            XCTAssertNotNil(actual.error, "dbgen did not stop: \(testCase.name)", file: file, line: line)
            XCTAssertEqual(
                actual.messages, Array(expected.messages.prefix(actual.messages.count)),
                "messages differ: \(testCase.name)", file: file, line: line)
        } else {
            XCTAssertNil(actual.error, "dbgen stopped: \(testCase.name)", file: file, line: line)
            XCTAssertEqual(
                actual.content, expected.content, "content differs: \(testCase.name)", file: file, line: line)
            XCTAssertEqual(
                actual.messages, expected.messages, "warnings differ: \(testCase.name)", file: file, line: line)
        }
        return actual
    }

    /// The case's script: setup SQL, the dot-commands, final SQL.
    static func script(_ testCase: ImportCase) -> String {
        var script = testCase.setupSQL + "\n"
        for command in testCase.commands { script += command.shellText + "\n" }
        return script + testCase.finalSQL + "\n"
    }

    /// `sqlite3 expected.sqlite < script`, run in `directory` (it carries on after errors).
    static func runSQLite3(_ testCase: ImportCase, in directory: URL) throws -> ImportOutcome {
        let database = directory.appendingPathComponent("expected.sqlite")
        let result = try Oracle.sqlite3.run([database.path], in: directory, stdin: script(testCase))
        return ImportOutcome(
            content: try dump(database), messages: coalescedLikeDBGen(normalizedShellMessages(result.stderrText)),
            error: nil)
    }

    /// A per-row warning sqlite3 printed: `data.csv:7: expected 2 columns but found 3 - extras ignored`.
    struct ShellRowWarning {
        var file: String
        var line: Int
        var kind: ImportWarningKind
        /// For field-count warnings, the columns expected and the fields found.
        var expected = 0
        var found = 0

        init?(_ message: String) {
            let parts = message.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let line = Int(parts[1]) else { return nil }
            let text = parts[2].dropFirst()
            file = String(parts[0])
            self.line = line
            if text == "unescaped \" character" {
                kind = .unescapedQuote
                return
            }
            let words = text.split(separator: " ")
            guard words.count >= 8, words[0] == "expected", words[2] == "columns", words[4] == "found",
                let expected = Int(words[1]), let found = Int(words[5])
            else { return nil }
            if text.hasSuffix(" - filling the rest with NULL") {
                kind = .missingFields
            } else if text.hasSuffix(" - extras ignored") {
                kind = .extraFields
            } else {
                return nil
            }
            self.expected = expected
            self.found = found
        }
    }

    /// sqlite3's messages as dbgen reports them: in each run of messages about one file (one
    /// import), the first ``ImportWarningTally/reportedPerKind`` per-row warnings of a kind
    /// as they are, the rest dropped and summed up, once the run ends, in one line per kind
    /// (`data.csv:2: 7 rows had 3 fields, expected 2 - extras ignored (first at line 2)`), in
    /// the order the kinds first appeared. sqlite3 prints every one; the count and the lines
    /// come from what it printed.
    static func coalescedLikeDBGen(_ messages: [String]) -> [String] {
        let shown = ImportWarningTally.reportedPerKind
        var result: [String] = []
        var runFile: String?
        var run: [(kind: ImportWarningKind, warnings: [ShellRowWarning])] = []
        func endRun() {
            for (kind, warnings) in run where warnings.count > shown {
                let first = warnings[0]
                let fewest = warnings.map(\.found).min()!, most = warnings.map(\.found).max()!
                let fields = fewest == most ? "\(most) field\(most == 1 ? "" : "s")" : "\(fewest) to \(most) fields"
                let text: String
                switch kind {
                case .missingFields:
                    text =
                        "\(warnings.count) rows had \(fields), expected \(first.expected) - filling the rest with NULL"
                case .extraFields:
                    text = "\(warnings.count) rows had \(fields), expected \(first.expected) - extras ignored"
                case .unescapedQuote: text = "\(warnings.count) unescaped \" characters"
                }
                result.append("\(first.file):\(first.line): \(text) (first at line \(first.line))")
            }
            run = []
            runFile = nil
        }
        for message in messages {
            let file = message.split(separator: ":", maxSplits: 1).first.map(String.init)
            if file != runFile { endRun() }
            runFile = file
            guard let warning = ShellRowWarning(message) else {
                result.append(message)
                continue
            }
            if let index = run.firstIndex(where: { $0.kind == warning.kind }) {
                run[index].warnings.append(warning)
                if run[index].warnings.count <= shown { result.append(message) }
            } else {
                run.append((warning.kind, [warning]))
                result.append(message)
            }
        }
        endRun()
        return result
    }

    /// sqlite3's stderr as one message a line; the multi-line rename notice folded into the
    /// single line dbgen reports.
    static func normalizedShellMessages(_ stderr: String) -> [String] {
        var lines = stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var result: [String] = []
        while !lines.isEmpty {
            let first = lines.removeFirst()
            if first.hasPrefix("Columns renamed during .import ") {
                let file = first.dropFirst("Columns renamed during .import ".count).replacingOccurrences(
                    of: " due to duplicates:", with: "")
                var renames: [String] = []
                while let next = lines.first, next.hasPrefix("\"") {
                    renames.append(next.hasSuffix(",") ? String(next.dropLast()) : next)
                    lines.removeFirst()
                }
                result.append(
                    "\(file):RENAME: columns renamed during .import due to duplicates: "
                        + renames.joined(separator: ", "))
            } else {
                result.append(first)
            }
        }
        return result
    }

    /// Builds the case's script with ``DatabaseBuilder`` (what `dbgen build` runs), collecting
    /// warnings in the shell's format (`data.csv:2: message`, paths relative to the script).
    static func runDBGen(_ testCase: ImportCase, in directory: URL) throws -> ImportOutcome {
        let schema = directory.appendingPathComponent("schema.txt")
        try Data(script(testCase).utf8).write(to: schema)
        let database = directory.appendingPathComponent("actual.sqlite")
        var messages: [String] = []
        func shellFormat(_ message: String, _ location: SourceLocation?) -> String {
            guard let location else { return message }
            let path = location.path.replacingOccurrences(of: directory.path + "/", with: "")
            if message.hasPrefix("columns renamed") { return "\(path):RENAME: \(message)" }
            return "\(path):\(location.line): \(message)"
        }
        var options = BuildOptions(schema: schema.path, output: database.path)
        options.force = true
        options.cacheDirectory = nil // forced, so no fingerprint is needed: none lands in ~/.cache/dbgen
        options.diagnosticHandler = { messages.append(shellFormat($0.message, $0.location)) }
        do {
            _ = try DatabaseBuilder.build(options)
        } catch let error as DBGenError {
            messages.append(shellFormat(error.message, error.location))
            return ImportOutcome(content: [], messages: messages, error: error)
        }
        return ImportOutcome(content: try dump(database), messages: messages, error: nil)
    }

    static func open(_ url: URL) throws -> Connection {
        try Connection(path: url.path, create: true)
    }

    static func exec(_ connection: Connection, _ sql: String) throws {
        try connection.execute(sql)
    }

    /// Every row of `sql`, each value as its text (NULL as `<NULL>`).
    static func query(_ connection: Connection, _ sql: String) throws -> [[String]] {
        try connection.query(sql).map { row in
            row.values.map { value in value == .null ? "<NULL>" : value.shellText }
        }
    }

    /// `user_version`, `application_id`, the schema and every row of every table, with
    /// `typeof()` and `quote()` of each column.
    static func dump(_ url: URL) throws -> [String] {
        let db = try Connection(path: url.path, readOnly: true)
        var lines = try query(
            db,
            "SELECT 'user_version: ' || user_version FROM pragma_user_version "
                + "UNION ALL SELECT 'application_id: ' || application_id FROM pragma_application_id"
        )
        .map { $0[0] }
        let schema = try query(db, "SELECT type, name, tbl_name, quote(sql) FROM sqlite_schema ORDER BY name")
        for row in schema {
            lines.append("schema: " + row.joined(separator: " | "))
        }
        for row in schema where row[0] == "table" && !row[1].hasPrefix("sqlite_") {
            let table = SQLIdentifier.quote(row[1])
            let columns = try query(db, "SELECT name FROM pragma_table_info(\(SQLIdentifier.quoteLiteral(row[1])))").map
            { $0[0] }
            let selected = columns.map { column -> String in
                let quoted = SQLIdentifier.quote(column)
                return "typeof(\(quoted)) || ':' || quote(\(quoted))"
            }.joined(separator: " || ' , ' || ")
            let withoutRowid = row[3].uppercased().contains("WITHOUT ROWID")
            let order = withoutRowid ? "" : " ORDER BY rowid"
            for data in try query(db, "SELECT \(selected) FROM \(table)\(order)") {
                lines.append("\(row[1]): \(data[0])")
            }
        }
        return lines
    }
}
