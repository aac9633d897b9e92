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

/// Builds a database from a schema script: into a temporary file beside the output, renamed
/// into place only on success, so the output never holds a partial database; skipped when the
/// fingerprint of the last build says no input changed.
public enum DatabaseBuilder {
    /// Runs a build.
    ///
    /// - Returns: What was built (or that the output was up to date).
    /// - Throws: ``DBGenError``; the output is then exactly as it was.
    public static func build(_ options: BuildOptions) throws -> BuildSummary {
        let started = Date()
        let cwd = PathResolution.currentDirectory
        let options =
            try options.configurationFile.map {
                try BuildConfiguration.load(from: PathResolution.absolute($0, relativeTo: cwd), displayPath: $0)
                    .applied(to: options)
            } ?? options
        let schemaPath = PathResolution.absolute(options.schema, relativeTo: cwd)
        let outputPath = PathResolution.absolute(options.output, relativeTo: cwd)
        let fingerprintPath = FingerprintStore.path(
            forOutput: outputPath, depfile: options.depfile.map { PathResolution.absolute($0, relativeTo: cwd) },
            cacheDirectory: options.cacheDirectory.map { PathResolution.absolute($0, relativeTo: cwd) })

        // A killed build's temporary file goes first, even when nothing needs building.
        AtomicOutputFile.removeStaleTemporaries(
            of: outputPath, tag: Self.temporaryTag,
            companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes)
        if !options.force, let fingerprintPath, let fingerprint = BuildFingerprint.load(from: fingerprintPath),
            fingerprint.isCurrent(schema: schemaPath, outputPath: outputPath, options: options.fingerprintOptions)
        {
            var summary = fingerprint.summary
            summary.output = options.output
            summary.upToDate = true
            summary.seconds = Date().timeIntervalSince(started)
            if let depfile = options.depfile {
                try Depfile.write(
                    target: options.output, inputs: fingerprint.inputs.existing.map(\.displayPath), to: depfile)
            }
            return summary
        }
        try checkPaths(options, schemaPath: schemaPath, outputPath: outputPath)

        let file = try createOutput(outputPath)
        defer { file.discard() }
        let startStamp = FileStamp.of(file.temporaryPath)
        let result = try run(
            schema: options.schema, schemaPath: schemaPath, into: file.temporaryPath,
            strict: options.strict, diagnosticHandler: options.diagnosticHandler,
            progressHandler: options.progressHandler, afterStep: file.startWriteback)
        try WatchedInputs.check(result.inputs, readAt: result.inputLocations, roots: options.inputRoots)
        try commit(file)

        let summary = BuildSummary(
            output: options.output, upToDate: false,
            seconds: Date().timeIntervalSince(started), tables: result.tables,
            warnings: result.warnings.lines, warningCount: result.warnings.count,
            importWarnings: result.warnings.importCounts,
            inputs: result.inputs.existing.map(\.displayPath))
        let fingerprint = BuildFingerprint(
            dbgenVersion: DBGenKit.version, sqliteVersion: SQLiteLibrary.sourceID,
            options: options.fingerprintOptions, schema: schemaPath,
            outputPath: outputPath, inputs: result.inputs,
            output: FileStamp.of(outputPath), started: startStamp, summary: summary)
        do {
            if let fingerprintPath { try fingerprint.save(to: fingerprintPath) }
        } catch {
            // The database is built; only the next build's up-to-date check is lost.
            options.diagnosticHandler?(
                .warning("cannot record the build's fingerprint (the next build will not be skipped): \(error)"))
        }
        if let depfile = options.depfile {
            try Depfile.write(target: options.output, inputs: result.inputs.existing.map(\.displayPath), to: depfile)
        }
        return summary
    }

    /// The temporaries of an output are `.NAME.dbgen-XXXXXX`, each with its sidecar lock.
    static let temporaryTag = "dbgen"

    /// The temporary database beside the output (removed on Ctrl-C, SIGTERM and SIGHUP).
    private static func createOutput(_ outputPath: String) throws -> AtomicOutputFile {
        do {
            return try AtomicOutputFile(
                destination: outputPath, tag: temporaryTag,
                companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes, removeOnSignal: true)
        } catch let error as FileSystemError {
            throw DBGenError(.output, "cannot create a temporary file beside \"\(outputPath)\": \(error.reason)")
        }
    }

    /// Syncs the new database and renames it over the output (then syncs the directory).
    private static func commit(_ file: AtomicOutputFile) throws {
        do {
            try file.commit()
        } catch let error as FileSystemError where error.operation == .rename {
            throw DBGenError(.output, "cannot move the new database to \"\(file.destination)\": \(error.reason)")
        } catch let error as FileSystemError {
            throw DBGenError(.output, "cannot write the new database to \"\(file.destination)\": \(error.reason)")
        }
    }

    /// The schema must exist and the output's directory too.
    private static func checkPaths(_ options: BuildOptions, schemaPath: String, outputPath: String) throws {
        try requireSchema(options.schema, at: schemaPath)
        let directory = PathText.deletingLastComponent(outputPath)
        guard PathResolution.isDirectory(directory) else {
            let shown = PathText.deletingLastComponent(options.output)
            throw DBGenError(.output, "cannot write \"\(options.output)\": directory \"\(shown)\" does not exist")
        }
    }

    /// The schema script (shown as `schema`, at `schemaPath`) must exist.
    static func requireSchema(_ schema: String, at schemaPath: String) throws {
        guard FileManager.default.fileExists(atPath: schemaPath) else {
            throw DBGenError(.input, "cannot open schema \"\(schema)\": no such file")
        }
    }

    /// What running a script into a database produced.
    struct ScriptOutcome {
        var tables: [BuildSummary.Table]
        var inputs: [InputFile]
        /// Where each input was first read, by absolute path.
        var inputLocations: [String: SourceLocation]
        /// The warnings reported, and how many there were.
        var warnings: BuildWarnings
    }

    /// A warning as the error `strict` makes it: what the warning says the build does instead
    /// (` - filling the rest with NULL`, ` - extras ignored`) does not happen, so the message
    /// says what does.
    static func strictMessage(_ warning: String) -> String {
        var text = warning
        for consequence in [" - filling the rest with NULL", " - extras ignored"] where text.hasSuffix(consequence) {
            text.removeLast(consequence.count)
        }
        return text + " (an error under --strict: nothing is written, the output is left as it was)"
    }

    /// Runs `schema` into the (new, empty) database file at `databasePath`: the one path from a
    /// script to a database, used by ``build(_:)`` (into its temporary file) and by
    /// ``SchemaCheck`` (into a scratch file).
    static func run(
        schema displayPath: String, schemaPath: String, into databasePath: String, strict: Bool,
        diagnosticHandler: ((Diagnostic) -> Void)?,
        progressHandler: ((ImportProgress) -> Void)?,
        afterStep: (() -> Void)? = nil
    ) throws -> ScriptOutcome {
        let build = try BuildConnection.open(databasePath)
        let connection = build.connection
        var warnings = BuildWarnings()
        let runner = try ScriptRunner(
            connection: connection, relativePaths: build.relativePaths,
            diagnostics: { diagnostic in
                if strict {
                    throw DBGenError(.warningAsError, strictMessage(diagnostic.message), at: diagnostic.location)
                }
                warnings.add(diagnostic)
                diagnosticHandler?(diagnostic)
            }, progress: progressHandler, afterStep: afterStep)
        // The runner is the environment of the connection's SQL functions: it outlives it.
        defer { withExtendedLifetime((runner, build)) { connection.close() } }
        let limits = RuntimeLimit.all.map { ($0, connection.limit($0)) }
        try runner.run(scriptAt: schemaPath, displayPath: displayPath)
        // The script's `.limit`s were for its statements, not for reading the result back.
        for (limit, value) in limits { connection.setLimit(limit, to: Int32(value)) }
        try SyncTemplateCapture.install(on: connection, sites: runner.declarationSites, schema: displayPath)
        try BuildConnection.seal(connection)
        let tables = try BuildConnection.tableCounts(connection)
        return ScriptOutcome(
            tables: tables, inputs: runner.inputs, inputLocations: runner.inputLocations, warnings: warnings)
    }
}
