import Foundation
import SQLiteCore

/// How the runner carries out each dot-command: the state later statements see (`.mode`,
/// `.separator`, `.parameter`, `.dbconfig`, `.limit`, `.cd`), `.read`, `.import` and `.quit`;
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
        case .parameter(let subcommand):
            if let warning = try ShellParameters(connection: connection).perform(subcommand) {
                try diagnostics(Diagnostic.warning(warning, at: location))
            }
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
        } catch let error as DBGenError where error.message.hasSuffix("not authorized") {
            // The build's authorizer refused the import's own statements (an attached target).
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
