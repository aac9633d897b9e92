import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore
import EssentialsSupport

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
    /// Called after each statement or dot-command.
    let afterStep: (() -> Void)?
    var settings = ShellOutputSettings()
    /// Set by `.quit`/`.exit`: the script being read ends there (a script that `.read` it
    /// carries on, as in the 3.40.1 shell, where `.quit` ends only the input it came from).
    var quitRequested = false
    private var readStack: [String] = []
    /// The scripts being run, innermost last.
    var contexts: [ScriptContext] = []
    private(set) var authorizer: BuildAuthorizer!
    /// Where the script wrote its sync declarations (``DeclarationSites``).
    let declarationSites = DeclarationSites()
    private var extensions: ShellExtensionHost!
    private let relativePaths: RelativePathVFS

    /// Every file read, in the order first read.
    private(set) var inputs: [InputFile] = []
    /// The paths in `inputs` (fsdir records every entry of a tree it walks).
    private var inputPaths: Set<String> = []
    /// Where each input was first read (the dot-command's line, or the start of the SQL
    /// statement that read it), by absolute path.
    private(set) var inputLocations: [String: SourceLocation] = [:]
    /// The dot-command or SQL being performed.
    private var currentLocation: SourceLocation?

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
    ///   - afterStep: called after each statement or dot-command (the build starts writing the
    ///     database out to storage there).
    init(
        connection: Connection, relativePaths: RelativePathVFS, diagnostics: @escaping DiagnosticHandler,
        progress: ((ImportProgress) -> Void)? = nil, afterStep: (() -> Void)? = nil
    ) throws {
        self.connection = connection
        self.afterStep = afterStep
        self.relativePaths = relativePaths
        self.diagnostics = diagnostics
        self.progress = progress
        authorizer = try BuildAuthorizer(
            connection: connection,
            baseDirectory: { [unowned self] in
                self.workingDirectory
            }, recordInput: { [unowned self] in self.recordInput($0) })
        extensions = try ShellExtensionHost(connection: connection, baseDirectory: PathResolution.currentDirectory) {
            [unowned self] path in
            self.recordInput(PathResolution.absolute(path, relativeTo: self.workingDirectory))
        }
    }

    /// The directory relative paths resolve against, as the shell's working directory: the
    /// innermost script's (its own, until a `.cd`), else the process's. The one place it is
    /// kept; the connection's VFS and the shell's functions are told of every change.
    var workingDirectory: String { contexts.last?.directory ?? PathResolution.currentDirectory }

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
        inputLocations[absolutePath] = currentLocation
        inputs.append(InputFile(path: absolutePath, displayPath: displayPath, stamp: FileStamp.of(absolutePath)))
    }

    /// Runs a script; `.read` comes back here.
    func runScript(absolutePath: String, displayPath: String, namedAt location: SourceLocation?) throws {
        let canonical = PathText.resolvingSymlinks(absolutePath)
        if readStack.contains(canonical) {
            throw DBGenError(
                .dotCommand, "recursive .read of \"\(displayPath)\" (it is already being read)", at: location)
        }
        guard PathResolution.isFile(absolutePath), let data = FileManager.default.contents(atPath: absolutePath) else {
            let reason = PathResolution.isDirectory(absolutePath) ? ": is a directory" : ""
            throw DBGenError(.input, "cannot open script \"\(displayPath)\"\(reason)", at: location)
        }
        recordInput(absolutePath, displayPath)
        readStack.append(canonical)
        enter(
            ScriptContext(
                displayPath: displayPath, directory: PathText.deletingLastComponent(absolutePath),
                displayDirectory: PathText.deletingLastComponent(displayPath)))
        defer {
            readStack.removeLast()
            leave()
        }
        for item in ScriptReader([UInt8](data)) {
            try perform(item)
            afterStep?()
            if quitRequested {
                quitRequested = false
                return
            }
        }
    }

    private func enter(_ context: ScriptContext) {
        contexts.append(context)
        workingDirectoryChanged()
    }

    private func leave() {
        contexts.removeLast()
        workingDirectoryChanged()
    }

    /// The innermost script's context changed (`.cd`).
    func updateCurrentContext(_ change: (inout ScriptContext) -> Void) {
        change(&contexts[contexts.count - 1])
        workingDirectoryChanged()
    }

    /// Relative paths in SQL (the shell's file functions, `ATTACH`) resolve against
    /// ``workingDirectory``: the VFS and the C functions, which cannot ask, are told.
    private func workingDirectoryChanged() {
        extensions.setBaseDirectory(workingDirectory)
        relativePaths.baseDirectory = workingDirectory
    }

    private func perform(_ item: ScriptItem) throws {
        let script = contexts[contexts.count - 1]
        switch item {
        case .sql(let chunk, let complete):
            currentLocation = chunk.lines.first.map { SourceLocation(path: script.displayPath, line: $0.line) }
            let executor = SQLChunkExecutor(
                connection: connection, scriptPath: script.displayPath,
                diagnostics: diagnostics, authorizer: authorizer, declarationSites: declarationSites)
            try executor.execute(chunk, complete: complete)
        case .dotCommand(let line, let lineNumber):
            let location = SourceLocation(path: script.displayPath, line: lineNumber, column: 1)
            currentLocation = location
            do {
                let arguments = DotCommandTokenizer.tokenizeBytes(Array(line.utf8))
                guard let command = try DotCommandParser.parse(arguments) else { return }
                try perform(command, at: location)
            } catch let error as DBGenError {
                throw error.located(at: location)
            }
        }
    }
}

/// How the runner carries out each dot-command: the state later statements see (`.mode`,
/// `.separator`, `.parameter`, `.dbconfig`, `.limit`, `.cd`), `.read`, `.import`, `.restore` and `.quit`;
/// commands that only print do nothing.
extension ScriptRunner {
    func perform(_ command: DotCommand, at location: SourceLocation) throws {
        let script = contexts[contexts.count - 1]
        switch command {
        case .mode(let arguments):
            // A bare `.mode` re-applies the current mode (and so resets its separators).
            try settings.setMode(arguments: arguments)
        case .separator(let column, let row):
            settings.setSeparator(columnBytes: column, rowBytes: row)
        case .read(let file):
            try runScript(
                absolutePath: PathResolution.absolute(file, relativeTo: script.directory),
                displayPath: PathResolution.display(file, inDisplayDirectory: script.displayDirectory),
                namedAt: location)
        case .importFile(let arguments):
            try runImport(arguments, at: location, in: script)
        case .restore(let schema, let file):
            try restore(schema, from: file, in: script)
        case .parameter(let subcommand):
            authorizer.reset()
            let warning = try ShellParameters(connection: connection).perform(subcommand)
            // A VALUE the authorizer refused (`writefile(...)`) would otherwise be kept as text.
            if let reason = authorizer.lastRefusal { throw DBGenError(.refused, "refused: \(reason)") }
            if let warning { try diagnostics(Diagnostic.warning(warning, at: location)) }
        case .databaseOption(let option, let enabled):
            if let enabled { try setOption(option, enabled) }
        case .limit(let limit, let value):
            if let value { connection.setLimit(limit, to: Int32(clamping: value)) }
        case .changeDirectory(let directory):
            try changeDirectory(to: directory, in: script)
        case .quit:
            quitRequested = true
        case .outputOnly:
            break
        }
    }

    private func setOption(_ option: DatabaseOption, _ enabled: Bool) throws {
        do {
            try connection.setEnabled(option, enabled)
        } catch let error as SQLiteError {
            throw DBGenError(.dotCommand, "cannot set \(option.name): \(error.message)")
        }
    }

    /// `.cd`: relative paths named later in this script (and the scripts it reads) resolve
    /// against the new directory, as the shell's working directory would.
    private func changeDirectory(to directory: String, in script: ScriptContext) throws {
        let absolute = PathResolution.absolute(directory, relativeTo: script.directory)
        guard PathResolution.isDirectory(absolute) else {
            throw DBGenError(.input, "cannot change to directory \"\(directory)\"")
        }
        let display = PathResolution.display(directory, inDisplayDirectory: script.displayDirectory)
        updateCurrentContext { context in
            context.directory = absolute
            context.displayDirectory = display
        }
    }

    /// `.restore ?DB? FILE`: FILE (an input of the build) replaces the content of DB. The shell
    /// would create a missing FILE (and restore an empty database); dbgen writes no such file.
    private func restore(_ schema: String, from file: String, in script: ScriptContext) throws {
        let absolute = PathResolution.absolute(file, relativeTo: script.directory)
        let display = PathResolution.display(file, inDisplayDirectory: script.displayDirectory)
        guard PathResolution.isFile(absolute) else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .restore: no such file")
        }
        if let target = connection.filename(ofSchema: schema), !target.isEmpty,
            schema.lowercased() != "main", schema.lowercased() != "temp"
        {
            throw DotCommandParser.refusal(
                ".restore \(schema)",
                "it writes into the attached database \"\(schema)\" "
                    + "(attached databases are read-only inputs)")
        }
        recordInput(absolute, display)
        do {
            // Read-write without create, as ATTACH opens it: a read-only connection to a WAL
            // database leaves its -wal and -shm files behind; this one removes them on close.
            let source = try Connection(path: absolute)
            defer { source.close() }
            try connection.restore(schema, from: source)
        } catch let error as SQLiteError {
            throw DBGenError(.input, "cannot restore \"\(display)\" into \(schema): \(error.message)")
        }
    }

    private func runImport(_ arguments: ImportArguments, at location: SourceLocation, in script: ScriptContext) throws {
        let absolute = PathResolution.absolute(arguments.file, relativeTo: script.directory)
        let display = PathResolution.display(arguments.file, inDisplayDirectory: script.displayDirectory)
        guard !PathResolution.isDirectory(absolute) else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .import: it is a directory", at: location)
        }
        guard PathResolution.isFile(absolute) else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .import: no such file", at: location)
        }
        if let schema = arguments.schema { try requireSchema(schema) }
        recordInput(absolute, display)
        // The shell's side effects included (csv mode's "\r\n" becomes "\n" for good).
        let format = try settings.formatForImport(forcing: arguments.forcedQuoting)
        let request = ImportRequest(
            file: URL(fileURLWithPath: absolute), displayPath: display,
            table: arguments.table, schema: arguments.schema,
            skip: arguments.skip, format: format)
        authorizer.reset()
        do {
            // Every few megabytes: the caller's progress, and a step for `afterStep`.
            var importProgress = progress
            if let afterStep {
                importProgress = { [progress] report in
                    progress?(report)
                    afterStep()
                }
            }
            _ = try CSVImporter.run(request, into: connection, diagnostics: diagnostics, progress: importProgress)
        } catch let error as DBGenError {
            // The build's authorizer refused the import's own statements (an attached target):
            // its record, not the error's text, says so.
            guard let reason = authorizer.lastRefusal else { throw error }
            throw DBGenError(.refused, "refused: \(reason)", at: location)
        }
    }

    /// `.import --schema S`: S must be a database of the connection (the error is the
    /// command's, not the data file's).
    private func requireSchema(_ schema: String) throws {
        let names = try connection.query("SELECT name FROM pragma_database_list").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name.lowercased() }
            return nil
        }
        guard names.contains(schema.lowercased()) || schema.lowercased() == "temp" else {
            throw DBGenError(
                .dotCommand,
                "unknown database \"\(schema)\" for .import --schema (attached: "
                    + names.joined(separator: ", ") + ")")
        }
    }
}
