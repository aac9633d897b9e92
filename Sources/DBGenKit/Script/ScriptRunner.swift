import Foundation
import SQLiteCore

/// Receives warnings as they happen; throwing from it (as `--strict` does) stops the run.
typealias DiagnosticHandler = (Diagnostic) throws -> Void

/// Runs a schema script (and the scripts it `.read`s, the files it `.import`s) against an open
/// database, as `sqlite3 DB < SCHEMA` would, but stops at the first error with a ``DBGenError``
/// that names the file, line and column.
final class ScriptRunner {
    private let connection: Connection
    private let diagnostics: DiagnosticHandler
    private let progress: ((ImportProgress) -> Void)?
    private var settings = ShellOutputSettings()
    private var readStack: [String] = []
    private var quitRequested = false

    /// Every file read, in the order first read.
    private(set) var inputs: [InputFile] = []

    /// - Parameters:
    ///   - diagnostics: receives warnings; throwing stops the run.
    ///   - progress: called now and then during imports.
    init(connection: Connection, diagnostics: @escaping DiagnosticHandler,
         progress: ((ImportProgress) -> Void)? = nil) {
        self.connection = connection
        self.diagnostics = diagnostics
        self.progress = progress
    }

    /// Runs the script at `path` (relative paths against the current directory), shown as `displayPath`.
    func run(scriptAt path: String, displayPath: String) throws {
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
            throw DBGenError(.dotCommand, "recursive .read of \"\(displayPath)\" (it is already being read)", at: location)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: absolutePath) else {
            throw DBGenError(.input, "cannot open script \"\(displayPath)\"", at: location)
        }
        recordInput(absolutePath, displayPath)
        readStack.append(canonical)
        defer { readStack.removeLast() }

        let bytes = [UInt8](data)
        var splitter = ScriptStatementSplitter()
        let script = ScriptContext(displayPath: displayPath,
                                   directory: (absolutePath as NSString).deletingLastPathComponent)
        for (index, line) in ScriptReader.lines(of: bytes).enumerated() {
            if let item = splitter.feed(Array(line), lineNumber: index + 1) {
                try perform(item, in: script)
                if quitRequested { return }
            }
        }
        if let item = splitter.finish() {
            try perform(item, in: script)
        }
    }

    /// The script being run: how it is shown, and the directory its paths resolve against.
    private struct ScriptContext {
        var displayPath: String
        var directory: String
    }

    private func perform(_ item: ScriptItem, in script: ScriptContext) throws {
        switch item {
        case .sql(let chunk, let complete):
            let executor = SQLChunkExecutor(connection: connection, scriptPath: script.displayPath,
                                            diagnostics: diagnostics)
            try executor.execute(chunk, complete: complete)
        case .dotCommand(let line, let lineNumber):
            let location = SourceLocation(path: script.displayPath, line: lineNumber, column: 1)
            do {
                guard let command = try DotCommand.parse(DotCommandTokenizer.tokenize(line)) else { return }
                try perform(command, line: line, at: location, in: script)
            } catch let error as DBGenError {
                throw error.located(at: location)
            }
        }
    }

    private func perform(_ command: DotCommand, line: String, at location: SourceLocation,
                         in script: ScriptContext) throws {
        switch command {
        case .mode(let arguments):
            // A bare `.mode` re-applies the current mode (and so resets its separators).
            try settings.setMode(arguments: arguments)
        case .separator:
            // The tokenizer already resolved escapes; pass the exact bytes.
            let arguments = DotCommandTokenizer.tokenizeBytes(Array(line.utf8))
            settings.setSeparator(columnBytes: arguments[1], rowBytes: arguments.count > 2 ? arguments[2] : nil)
        case .read(let file):
            try runScript(absolutePath: PathResolution.absolute(file, relativeTo: script.directory),
                          displayPath: PathResolution.display(file, namedIn: script.displayPath),
                          namedAt: location)
        case .importFile(let arguments):
            try runImport(arguments, at: location, in: script)
        case .ignored:
            break
        case .quit:
            quitRequested = true
        }
    }

    private func runImport(_ arguments: DotCommand.ImportArguments, at location: SourceLocation,
                           in script: ScriptContext) throws {
        let absolute = PathResolution.absolute(arguments.file, relativeTo: script.directory)
        let display = PathResolution.display(arguments.file, namedIn: script.displayPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .import: no such file", at: location)
        }
        guard !isDirectory.boolValue else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .import: it is a directory", at: location)
        }
        recordInput(absolute, display)
        // The shell's side effects included (csv mode's "\r\n" becomes "\n" for good).
        let format = try settings.formatForImport(forcing: arguments.forcedQuoting)
        let request = ImportRequest(file: URL(fileURLWithPath: absolute), displayPath: display,
                                    table: arguments.table, schema: arguments.schema,
                                    skip: arguments.skip, format: format)
        _ = try CSVImporter.run(request, into: connection, diagnostics: diagnostics, progress: progress)
    }
}
