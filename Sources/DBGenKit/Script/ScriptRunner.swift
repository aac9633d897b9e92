import FileSystemKit
import Foundation
import SQLiteCore

/// Receives warnings as they happen; throwing from it (as `--strict` does) stops the run.
typealias DiagnosticHandler = (Diagnostic) throws -> Void

/// Runs a schema script (and the scripts it `.read`s, the files it `.import`s) against an open
/// database, as `sqlite3 DB < SCHEMA` would, but stops at the first error with a ``DBGenError``
/// that names the file, line and column.
///
/// The connection gets the shell's SQL functions (``ShellExtensionHost``) and the build's
/// authorizer (``BuildAuthorizer``); keep the runner alive until the connection is closed.
final class ScriptRunner {
    let connection: Connection
    let diagnostics: DiagnosticHandler
    let progress: ((ImportProgress) -> Void)?
    var settings = ShellOutputSettings()
    /// Set by `.quit`/`.exit`: the script being read ends there (a script that `.read` it
    /// carries on, as in the 3.40.1 shell, where `.quit` ends only the input it came from).
    var quitRequested = false
    private var readStack: [String] = []
    /// The scripts being run, innermost last.
    var contexts: [ScriptContext] = []
    private(set) var authorizer: BuildAuthorizer!
    private var extensions: ShellExtensionHost!
    private let relativePaths: RelativePathVFS

    /// Every file read, in the order first read.
    private(set) var inputs: [InputFile] = []
    /// The paths in `inputs` (fsdir records every entry of a tree it walks).
    private var inputPaths: Set<String> = []

    /// The script being run: how it is shown, and the directory its relative paths resolve
    /// against (the script's own, until a `.cd`).
    struct ScriptContext {
        var displayPath: String
        var directory: String
        var displayDirectory: String
    }

    /// - Parameters:
    ///   - diagnostics: receives warnings; throwing stops the run.
    ///   - progress: called now and then during imports.
    ///   - relativePaths: the connection's VFS, told the running script's directory.
    init(connection: Connection, relativePaths: RelativePathVFS, diagnostics: @escaping DiagnosticHandler,
         progress: ((ImportProgress) -> Void)? = nil) throws {
        self.connection = connection
        self.relativePaths = relativePaths
        self.diagnostics = diagnostics
        self.progress = progress
        authorizer = try BuildAuthorizer(connection: connection, baseDirectory: { [unowned relativePaths] in
            relativePaths.baseDirectory
        }, recordInput: { [unowned self] in self.recordInput($0) })
        extensions = try ShellExtensionHost(connection: connection, baseDirectory: PathResolution.currentDirectory) {
            [unowned self] path in
            self.recordInput(PathResolution.absolute(path, relativeTo: self.contexts.last?.directory
                                                     ?? PathResolution.currentDirectory))
        }
    }

    /// Runs the script at `path` (relative paths against the current directory), shown as `displayPath`.
    func run(scriptAt path: String, displayPath: String) throws {
        let absolute = PathResolution.absolute(path, relativeTo: PathResolution.currentDirectory)
        try runScript(absolutePath: absolute, displayPath: displayPath, namedAt: nil)
    }

    /// Records an input named by absolute path, shown relative to the current directory when
    /// it is inside it.
    func recordInput(_ absolutePath: String) {
        recordInput(absolutePath, PathResolution.display(absolute: absolutePath))
    }

    func recordInput(_ absolutePath: String, _ displayPath: String) {
        guard inputPaths.insert(absolutePath).inserted else { return }
        inputs.append(InputFile(path: absolutePath, displayPath: displayPath, stamp: FileStamp.of(absolutePath)))
    }

    /// Runs a script; `.read` comes back here.
    func runScript(absolutePath: String, displayPath: String, namedAt location: SourceLocation?) throws {
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
        enter(ScriptContext(displayPath: displayPath, directory: (absolutePath as NSString).deletingLastPathComponent,
                            displayDirectory: (displayPath as NSString).deletingLastPathComponent))
        defer {
            readStack.removeLast()
            leave()
        }
        var splitter = ScriptStatementSplitter()
        for (index, line) in ScriptReader.lines(of: [UInt8](data)).enumerated() {
            if let item = splitter.feed(Array(line), lineNumber: index + 1) {
                try perform(item)
                if quitRequested {
                    quitRequested = false
                    return
                }
            }
        }
        if let item = splitter.finish() {
            try perform(item)
        }
    }

    private func enter(_ context: ScriptContext) {
        contexts.append(context)
        setBaseDirectory(context.directory)
    }

    private func leave() {
        contexts.removeLast()
        setBaseDirectory(contexts.last?.directory ?? PathResolution.currentDirectory)
    }

    /// The innermost script's context changed (`.cd`).
    func updateCurrentContext(_ change: (inout ScriptContext) -> Void) {
        change(&contexts[contexts.count - 1])
        setBaseDirectory(contexts[contexts.count - 1].directory)
    }

    /// Relative paths in SQL (the shell's file functions, `ATTACH`) resolve against `directory`.
    private func setBaseDirectory(_ directory: String) {
        extensions.baseDirectory = directory
        relativePaths.baseDirectory = directory
    }

    private func perform(_ item: ScriptItem) throws {
        let script = contexts[contexts.count - 1]
        switch item {
        case .sql(let chunk, let complete):
            let executor = SQLChunkExecutor(connection: connection, scriptPath: script.displayPath,
                                            diagnostics: diagnostics, authorizer: authorizer)
            try executor.execute(chunk, complete: complete)
        case .dotCommand(let line, let lineNumber):
            let location = SourceLocation(path: script.displayPath, line: lineNumber, column: 1)
            do {
                guard let command = try DotCommandParser.parse(DotCommandTokenizer.tokenize(line)) else { return }
                try perform(command, line: line, at: location)
            } catch let error as DBGenError {
                throw error.located(at: location)
            }
        }
    }
}
