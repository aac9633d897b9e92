import Foundation
import PackagePlugin

/// The build command that writes the version constants file with `versionstamp`.
struct VersionConstantsCommand {
    /// The generated file's name (and so the name that shows in build logs).
    static let fileName = "BuildVersion.swift"
    /// The variable that replaces the repository where there is none (a source tarball).
    static let versionVariable = "VERSIONSTAMP_VERSION"

    let versionstamp: Path
    let outputDirectory: Path
    /// Where repository discovery starts (the package or Xcode project directory); the
    /// configuration's paths are relative to it.
    let startingDirectory: Path
    /// The release-numbering options from `versionstamp.json`.
    let configuration: VersionStampConfiguration

    func command() -> Command {
        let output = outputDirectory.appending(Self.fileName)
        // Passed explicitly, so a change of value re-runs the command.
        var environment: [String: String] = [:]
        for name in [Self.versionVariable, configuration.buildNumberVariable].compactMap({ $0 }) {
            if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
        }
        var inputs = RepositoryInputs(startingAt: startingDirectory)?.files ?? []
        if let file = configuration.file { inputs.append(file) }
        return .buildCommand(
            displayName: "Generating \(Self.fileName) with versionstamp",
            executable: versionstamp,
            arguments: ["stamp", "--quiet", "--repo", startingDirectory.string, "--swift", output.string]
                + configuration.arguments,
            environment: environment,
            inputFiles: inputs,
            outputFiles: [output]
        )
    }
}
