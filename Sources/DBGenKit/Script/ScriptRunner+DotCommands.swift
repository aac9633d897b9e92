import Foundation
import SQLiteCore

/// How the runner carries out each dot-command: the state later statements see (`.mode`,
/// `.separator`, `.parameter`, `.dbconfig`, `.limit`, `.cd`), `.read`, `.import`, `.restore` and `.quit`;
/// commands that only print do nothing.
extension ScriptRunner {
    func perform(_ command: DotCommand, line: String, at location: SourceLocation) throws {
        let script = contexts[contexts.count - 1]
        switch command {
        case .mode(let arguments):
            // A bare `.mode` re-applies the current mode (and so resets its separators).
            try settings.setMode(arguments: arguments)
        case .separator:
            // The exact bytes: escapes resolved, and single-quoted text taken as written.
            let arguments = DotCommandTokenizer.tokenizeBytes(Array(line.utf8))
            settings.setSeparator(columnBytes: arguments[1], rowBytes: arguments.count > 2 ? arguments[2] : nil)
        case .read(let file):
            try runScript(absolutePath: PathResolution.absolute(file, relativeTo: script.directory),
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue else {
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .restore: no such file")
        }
        if let target = connection.filename(ofSchema: schema), !target.isEmpty,
           schema.lowercased() != "main", schema.lowercased() != "temp" {
            throw DotCommandParser.refusal(".restore \(schema)", "it writes into the attached database \"\(schema)\" "
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .import: no such file", at: location)
        }
        guard !isDirectory.boolValue else {
            throw DBGenError(.input, "cannot open \"\(display)\" for .import: it is a directory", at: location)
        }
        if let schema = arguments.schema { try requireSchema(schema) }
        recordInput(absolute, display)
        // The shell's side effects included (csv mode's "\r\n" becomes "\n" for good).
        let format = try settings.formatForImport(forcing: arguments.forcedQuoting)
        let request = ImportRequest(file: URL(fileURLWithPath: absolute), displayPath: display,
                                    table: arguments.table, schema: arguments.schema,
                                    skip: arguments.skip, format: format)
        authorizer.reset()
        do {
            _ = try CSVImporter.run(request, into: connection, diagnostics: diagnostics, progress: progress)
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
            throw DBGenError(.dotCommand, "unknown database \"\(schema)\" for .import --schema (attached: "
                             + names.joined(separator: ", ") + ")")
        }
    }
}
