import PackagePlugin

/// The `dbgen` build commands for a target's files: one per `NAME.dbgen.txt` script.
struct DatabaseBuildCommands {
    /// The file-name suffix that marks a schema script to build.
    static let scriptSuffix = ".dbgen.txt"

    let dbgen: Path
    let outputDirectory: Path

    func commands(for files: [Path]) throws -> [Command] {
        let scripts = files
            .filter { $0.lastComponent.hasSuffix(Self.scriptSuffix) && $0.lastComponent != Self.scriptSuffix }
            .sorted { $0.string < $1.string }
        var seen: [String: Path] = [:]
        return try scripts.map { script in
            let name = String(script.lastComponent.dropLast(Self.scriptSuffix.count))
            if let other = seen.updateValue(script, forKey: name) {
                throw DuplicateDatabaseName(name: name, scripts: [other, script])
            }
            let output = outputDirectory.appending("\(name).sqlite")
            return .buildCommand(
                displayName: "Building \(name).sqlite from \(script.lastComponent) with dbgen",
                executable: dbgen,
                arguments: ["build", script.string, "-o", output.string],
                // dbgen's up-to-date record goes to a cache directory; the plugin's own work
                // directory is one the sandbox lets it write (it is not a declared output, so
                // it never becomes a resource).
                environment: ["DBGEN_CACHE_DIR": outputDirectory.appending("dbgen-cache").string],
                inputFiles: ScriptInputs.files(readBy: script),
                outputFiles: [output]
            )
        }
    }
}

/// Two scripts in one target would build resources with the same name.
struct DuplicateDatabaseName: Error, CustomStringConvertible {
    let name: String
    let scripts: [Path]

    var description: String {
        "\(scripts.map(\.string).joined(separator: " and ")) would both build \(name).sqlite; rename one"
    }
}
