import CSQLite
import DBGenKit
import Foundation
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

/// A differential case: the same SQL and dot-commands given to /usr/bin/sqlite3 and to
/// ``CSVImporter``, then both databases and both sets of warnings compared.
struct ImportCase {
    var name: String
    var setupSQL: String = ""
    var files: [String: [UInt8]] = [:]
    var commands: [ImportScriptCommand]
    /// SQL run after the imports on both sides (e.g. to copy a temp table into main).
    var finalSQL: String = ""

    init(_ name: String, setupSQL: String = "", files: [String: [UInt8]], commands: [ImportScriptCommand], finalSQL: String = "") {
        self.name = name
        self.setupSQL = setupSQL
        self.files = files
        self.commands = commands
        self.finalSQL = finalSQL
    }

    init(_ name: String, setupSQL: String = "", file: String, commands: [ImportScriptCommand], finalSQL: String = "") {
        self.init(name, setupSQL: setupSQL, files: ["data.csv": Array(file.utf8)], commands: commands, finalSQL: finalSQL)
    }
}

/// What one side produced.
struct ImportOutcome: Equatable {
    var content: [String]
    var messages: [String]
    /// dbgen stopped with this error (its message is the last of `messages`).
    var error: Diagnostic?
}

enum ImportDifferentialHarness {
    static let sqlite3Path = "/usr/bin/sqlite3"

    static func requireSQLite3() throws {
        guard FileManager.default.isExecutableFile(atPath: sqlite3Path) else {
            throw XCTSkip("\(sqlite3Path) is not installed")
        }
    }

    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("import-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs the case on both sides and asserts equal content and warnings. With `failsAt`,
    /// sqlite3 reports an error there and carries on, and dbgen must stop with the same
    /// message at the same place (warnings before it equal, content not compared).
    @discardableResult
    static func assertSameAsSQLite3(_ testCase: ImportCase, expectingError: Bool = false, allowError: Bool = false,
                                    file: StaticString = #filePath, line: UInt = #line) throws -> ImportOutcome {
        try requireSQLite3()
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, bytes) in testCase.files {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        let expected = try runSQLite3(testCase, in: directory)
        let actual = try runImporter(testCase, in: directory)
        if expectingError || (allowError && actual.error != nil) {
            XCTAssertNotNil(actual.error, "dbgen did not stop: \(testCase.name)", file: file, line: line)
            XCTAssertEqual(actual.messages, Array(expected.messages.prefix(actual.messages.count)),
                           "messages differ: \(testCase.name)", file: file, line: line)
        } else {
            XCTAssertNil(actual.error, "dbgen stopped: \(testCase.name)", file: file, line: line)
            XCTAssertEqual(actual.content, expected.content, "content differs: \(testCase.name)", file: file, line: line)
            XCTAssertEqual(actual.messages, expected.messages, "warnings differ: \(testCase.name)", file: file, line: line)
        }
        return actual
    }

    static func runSQLite3(_ testCase: ImportCase, in directory: URL) throws -> ImportOutcome {
        let database = directory.appendingPathComponent("expected.sqlite")
        var script = testCase.setupSQL + "\n"
        for command in testCase.commands { script += command.shellText + "\n" }
        script += testCase.finalSQL + "\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3Path)
        process.arguments = [database.path]
        process.currentDirectoryURL = directory
        let input = Pipe(), errors = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: errorData, as: UTF8.self)
        return ImportOutcome(content: try dump(database), messages: normalizedShellMessages(stderr), error: nil)
    }

    /// sqlite3's stderr as one message a line; the multi-line rename notice folded into the
    /// single line dbgen reports.
    static func normalizedShellMessages(_ stderr: String) -> [String] {
        var lines = stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var result: [String] = []
        while !lines.isEmpty {
            let first = lines.removeFirst()
            if first.hasPrefix("Columns renamed during .import ") {
                let file = first.dropFirst("Columns renamed during .import ".count).replacingOccurrences(of: " due to duplicates:", with: "")
                var renames: [String] = []
                while let next = lines.first, next.hasPrefix("\"") {
                    renames.append(next.hasSuffix(",") ? String(next.dropLast()) : next)
                    lines.removeFirst()
                }
                result.append("\(file):RENAME: columns renamed during .import due to duplicates: " + renames.joined(separator: ", "))
            } else {
                result.append(first)
            }
        }
        return result
    }

    static func runImporter(_ testCase: ImportCase, in directory: URL) throws -> ImportOutcome {
        let database = directory.appendingPathComponent("actual.sqlite")
        let db = try open(database)
        defer { sqlite3_close(db) }
        try exec(db, testCase.setupSQL)
        var settings = ShellOutputSettings()
        var messages: [String] = []
        do {
        for command in testCase.commands {
            switch command {
            case .mode(let arguments):
                try settings.setMode(arguments: arguments)
            case .separator(let column, let row):
                settings.setSeparator(column: column, row: row)
            case .import(let file, let table, let options):
                var forcing: ImportFormat.Quoting?
                var skip = 0
                var schema: String?
                var index = 0
                while index < options.count {
                    switch options[index] {
                    case "--csv": forcing = .csv
                    case "--ascii": forcing = .ascii
                    case "--skip": index += 1; skip = Int(options[index])!
                    case "--schema": index += 1; schema = options[index]
                    default: XCTFail("unknown option \(options[index])")
                    }
                    index += 1
                }
                let format = try settings.formatForImport(forcing: forcing)
                let request = ImportRequest(file: directory.appendingPathComponent(file), displayPath: file,
                                            table: table, schema: schema, skip: skip, format: format)
                _ = try CSVImporter.run(request, into: db, diagnostics: { diagnostic in
                    var text = diagnostic.message
                    if text.hasPrefix("columns renamed") {
                        messages.append("\(diagnostic.location!.path):RENAME: \(text)")
                        return
                    }
                    if let location = diagnostic.location { text = "\(location.path):\(location.line): \(text)" }
                    messages.append(text)
                })
            }
        }
        } catch let diagnostic as Diagnostic {
            var text = diagnostic.message
            if let location = diagnostic.location { text = "\(location.path):\(location.line): \(text)" }
            messages.append(text)
            return ImportOutcome(content: [], messages: messages, error: diagnostic)
        }
        try exec(db, testCase.finalSQL)
        return ImportOutcome(content: try dump(database), messages: messages, error: nil)
    }

    static func open(_ url: URL) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw Diagnostic.error("cannot open \(url.path)")
        }
        return db
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw Diagnostic.error("SQL failed: \(text)")
        }
    }

    static func query(_ db: OpaquePointer, _ sql: String) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Diagnostic.error("prepare failed: \(String(cString: sqlite3_errmsg(db))): \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            var row: [String] = []
            for column in 0..<sqlite3_column_count(statement) {
                if let text = sqlite3_column_text(statement, column) {
                    row.append(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self))
                } else {
                    row.append("<NULL>")
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// The schema and every row of every table, with `typeof()` and `quote()` of each column.
    static func dump(_ url: URL) throws -> [String] {
        let db = try open(url)
        defer { sqlite3_close(db) }
        var lines: [String] = []
        let schema = try query(db, "SELECT type, name, tbl_name, quote(sql) FROM sqlite_schema ORDER BY name")
        for row in schema {
            lines.append("schema: " + row.joined(separator: " | "))
        }
        for row in schema where row[0] == "table" && !row[1].hasPrefix("sqlite_") {
            let table = "\"" + row[1].replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let columns = try query(db, "SELECT name FROM pragma_table_info('\(row[1].replacingOccurrences(of: "'", with: "''"))')").map { $0[0] }
            let selected = columns.map { column -> String in
                let quoted = "\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
