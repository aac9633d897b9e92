import Foundation
import PackagePlugin

/// The `dbgen` build commands for a target: one per `NAME.dbgen.txt` script, building
/// `NAME.sqlite` into the plugin's work directory (SwiftPM makes it a resource of the target).
///
/// Each command's inputs are every file under its script's directory (``WatchedFiles``) and the
/// target's `dbgen.json` when there is one, and dbgen is told the directory (`--input-root`), so
/// it fails a script that reads outside it instead of building from files nobody watches. The
/// options in `dbgen.json` are read by dbgen when the command runs (`--config`), never here.
struct DatabaseBuildCommands {
    /// The per-target options file, read by dbgen when it runs.
    static let configurationFileName = "dbgen.json"

    let dbgen: Path
    let workDirectory: Path
    /// The target's name, for messages.
    let targetName: String
    /// The target's (or Xcode project's) directory, where `dbgen.json` is looked for.
    let targetDirectory: Path

    /// The commands for the target's `files`; warns when there is no script, and when an output
    /// of an earlier plan has lost its script (removing it from the work directory and the
    /// target's resource bundles).
    func commands(for files: [Path]) throws -> [Command] {
        let scripts = files.filter(ScriptNaming.isScript).sorted { $0.string < $1.string }
        try DuplicateResourceName.check(scripts, verb: "build", resourceName: ScriptNaming.databaseName(of:))
        if scripts.isEmpty {
            let warning = ScriptNaming.noScriptWarning(target: targetName, files: files)
            Diagnostics.warning(warning.message, file: warning.file?.string, line: warning.file == nil ? nil : 1)
        }
        let outputs = scripts.map { workDirectory.appending(ScriptNaming.databaseName(of: $0)) }
        let leftovers = LeftoverOutputs(workDirectory: workDirectory, pathExtension: "sqlite")
        for name in leftovers.removeAll(except: outputs) {
            let script = String(name.dropLast(".sqlite".count)) + ScriptNaming.suffix
            Diagnostics.warning(
                leftovers.removeBundleCopies(of: name, target: targetName, source: "'\(script)'"), file: nil, line: nil)
        }
        let configuration = targetDirectory.appending(Self.configurationFileName)
        let hasConfiguration = FileManager.default.fileExists(atPath: configuration.string)
        return zip(scripts, outputs).map { script, output in
            let root = script.removingLastComponent()
            var inputs = WatchedFiles.files(under: root)
            if hasConfiguration, !inputs.contains(configuration) { inputs.append(configuration) }
            return .buildCommand(
                displayName: "Building \(output.lastComponent) from \(script.lastComponent) with dbgen",
                executable: dbgen,
                arguments: ["build", script.string, "-o", output.string, "--input-root", root.string]
                    + (hasConfiguration ? ["--config", configuration.string] : []),
                // dbgen's up-to-date record goes to a cache directory in the work directory,
                // which the sandbox lets a build command write (it is not a declared output,
                // so it never becomes a resource).
                environment: ["DBGEN_CACHE_DIR": workDirectory.appending("dbgen-cache").string],
                inputFiles: inputs,
                outputFiles: [output]
            )
        }
    }
}
