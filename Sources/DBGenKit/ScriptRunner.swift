import CSQLite
import Foundation

/// Runs a schema script (and the scripts it `.read`s, the files it `.import`s) against an open
/// database, stopping at the first error with a ``Diagnostic`` that names the file, line and column.
public final class ScriptRunner {
    private let connection: SQLiteConnection
    private let diagnostics: DiagnosticHandler
    private let progress: ((String, Int64, Int64) -> Void)?
    private var settings = ShellOutputSettings()
    private var readStack: [String] = []
    private var quitRequested = false

    /// Every file read, in the order first read.
    public private(set) var inputs: [InputFile] = []
    /// Rows inserted by `.import`, per table name as given.
    public private(set) var importedRows: [String: Int] = [:]

    /// - Parameters:
    ///   - diagnostics: receives warnings; throwing stops the run.
    ///   - progress: called during imports with (display path, bytes read, total bytes).
    public init(connection: SQLiteConnection, diagnostics: @escaping DiagnosticHandler,
                progress: ((String, Int64, Int64) -> Void)? = nil) {
        self.connection = connection
        self.diagnostics = diagnostics
        self.progress = progress
    }

    /// Runs the script at `path` (relative paths against the current directory), shown as `displayPath`.
    public func run(scriptAt path: String, displayPath: String) throws {
        let absolute = PathResolution.absolute(path, relativeTo: PathResolution.currentDirectory)
        try runScript(absolutePath: absolute, displayPath: displayPath, namedAt: nil)
    }

    private func recordInput(_ absolutePath: String, _ displayPath: String) {
        guard !inputs.contains(where: { $0.path == absolutePath }) else { return }
        inputs.append(InputFile(path: absolutePath, displayPath: displayPath, stamp: FileStamp.of(absolutePath)))
    }

    private func runScript(absolutePath: String, displayPath: String, namedAt location: SourceLocation?) throws {
        let canonical = (absolutePath as NSString).resolvingSymlinksInPath
        if readStack.contains(canonical) {
            throw Diagnostic.error("recursive .read of \"\(displayPath)\" (it is already being read)", at: location)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: absolutePath) else {
            throw Diagnostic.error("cannot open script \"\(displayPath)\"", at: location)
        }
        recordInput(absolutePath, displayPath)
        readStack.append(canonical)
        defer { readStack.removeLast() }

        let bytes = [UInt8](data)
        var splitter = ScriptStatementSplitter()
        let directory = (absolutePath as NSString).deletingLastPathComponent
        for (index, line) in ScriptReader.lines(of: bytes).enumerated() {
            if let item = splitter.feed(Array(line), lineNumber: index + 1) {
                try perform(item, scriptPath: displayPath, directory: directory)
                if quitRequested { return }
            }
        }
        if let item = splitter.finish() {
            try perform(item, scriptPath: displayPath, directory: directory)
        }
    }

    private func perform(_ item: ScriptItem, scriptPath: String, directory: String) throws {
        switch item {
        case .sql(let chunk, let complete):
            try execute(chunk, complete: complete, scriptPath: scriptPath)
        case .dotCommand(let line, let lineNumber):
            let location = SourceLocation(path: scriptPath, line: lineNumber, column: 1)
            let command: DotCommand?
            do {
                command = try DotCommand.parse(DotCommandTokenizer.tokenize(line))
            } catch let message as DotCommand.Message {
                throw Diagnostic.error(message.text, at: location)
            }
            guard let command else { return }
            try perform(command, line: line, at: location, scriptPath: scriptPath, directory: directory)
        }
    }

    private func perform(_ command: DotCommand, line: String, at location: SourceLocation, scriptPath: String, directory: String) throws {
        do {
            switch command {
            case .mode(let arguments):
                if let name = arguments.first { try settings.setMode(name) }
            case .separator:
                // The tokenizer already resolved escapes; pass the exact bytes.
                let arguments = DotCommandTokenizer.tokenizeBytes(Array(line.utf8))
                settings.setSeparator(columnBytes: arguments[1], rowBytes: arguments.count > 2 ? arguments[2] : nil)
            case .read(let file):
                try runScript(absolutePath: PathResolution.absolute(file, relativeTo: directory),
                              displayPath: PathResolution.display(file, namedIn: scriptPath),
                              namedAt: location)
            case .importFile(let arguments):
                try runImport(arguments, at: location, scriptPath: scriptPath, directory: directory)
            case .ignored:
                break
            case .quit:
                quitRequested = true
            }
        } catch let diagnostic as Diagnostic {
            guard diagnostic.location == nil else { throw diagnostic }
            throw Diagnostic(diagnostic.severity, diagnostic.message, at: location)
        }
    }

    private func runImport(_ arguments: DotCommand.ImportArguments, at location: SourceLocation,
                           scriptPath: String, directory: String) throws {
        let absolute = PathResolution.absolute(arguments.file, relativeTo: directory)
        let display = PathResolution.display(arguments.file, namedIn: scriptPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw Diagnostic.error("cannot open \"\(display)\" for .import: no such file", at: location)
        }
        guard !isDirectory.boolValue else {
            throw Diagnostic.error("cannot open \"\(display)\" for .import: it is a directory", at: location)
        }
        recordInput(absolute, display)
        // The shell's side effects included (csv mode's "\r\n" becomes "\n" for good).
        let format = try settings.formatForImport(forcing: arguments.forcedQuoting)
        let request = ImportRequest(file: URL(fileURLWithPath: absolute), displayPath: display,
                                    table: arguments.table, schema: arguments.schema,
                                    skip: arguments.skip, format: format)
        let report = progress
        let result = try CSVImporter.run(request, into: connection.handle!, diagnostics: diagnostics,
                                         progress: report.map { callback in { callback(display, $0, $1) } })
        importedRows[arguments.table, default: 0] += result.rowsInserted
    }

    /// Prepares and steps every statement of `chunk`, as the shell's `shell_exec` does.
    private func execute(_ chunk: SQLChunk, complete: Bool, scriptPath: String) throws {
        let db = connection.handle!
        var text = chunk.text
        text.append(0)
        try text.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            let end = chunk.text.count
            while offset < end {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let start = base + offset
                let rc = sqlite3_prepare_v2(db, start, Int32(end - offset), &statement, &tail)
                let statementStart = offset + leadingTrivia(chunk.text, from: offset)
                if rc != SQLITE_OK {
                    let message = String(cString: sqlite3_errmsg(db))
                    let errorOffset = Int(sqlite3_error_offset(db))
                    if !complete && message == "incomplete input" {
                        let position = chunk.position(ofByte: statementStart)
                        throw Diagnostic.error("unterminated statement at end of file (incomplete input)",
                                               at: SourceLocation(path: scriptPath, line: position.line, column: position.column))
                    }
                    let position = chunk.position(ofByte: errorOffset >= 0 ? offset + errorOffset : statementStart)
                    let text = complete ? message : "unterminated statement at end of file (\(message))"
                    throw Diagnostic.error(text, at: SourceLocation(path: scriptPath, line: position.line, column: position.column))
                }
                let next = tail.map { $0 - base } ?? end
                defer { offset = max(next, offset + 1) }
                guard let statement else { continue }
                defer { sqlite3_finalize(statement) }
                var stepResult = sqlite3_step(statement)
                while stepResult == SQLITE_ROW { stepResult = sqlite3_step(statement) }
                if stepResult != SQLITE_DONE {
                    let message = String(cString: sqlite3_errmsg(db))
                    let position = chunk.position(ofByte: statementStart)
                    throw Diagnostic.error(message, at: SourceLocation(path: scriptPath, line: position.line, column: position.column))
                }
                if !complete && next >= end - trailingTrivia(chunk.text) {
                    let position = chunk.position(ofByte: statementStart)
                    try diagnostics(Diagnostic.warning("statement at end of file is not terminated by ';'",
                                                       at: SourceLocation(path: scriptPath, line: position.line, column: position.column)))
                }
            }
        }
    }

    /// Bytes of whitespace at `offset` (where the statement's own text starts).
    private func leadingTrivia(_ text: [UInt8], from offset: Int) -> Int {
        var index = offset
        while index < text.count, DotCommandTokenizer.isSpace(text[index]) { index += 1 }
        return index - offset
    }

    private func trailingTrivia(_ text: [UInt8]) -> Int {
        var count = 0
        while count < text.count, DotCommandTokenizer.isSpace(text[text.count - 1 - count]) { count += 1 }
        return count
    }
}
