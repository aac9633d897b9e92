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
    /// Where repository discovery starts (the package or Xcode project directory).
    let startingDirectory: Path

    func command() -> Command {
        let output = outputDirectory.appending(Self.fileName)
        var environment: [String: String] = [:]
        if let version = ProcessInfo.processInfo.environment[Self.versionVariable] {
            environment[Self.versionVariable] = version
        }
        return .buildCommand(
            displayName: "Generating \(Self.fileName) with versionstamp",
            executable: versionstamp,
            arguments: ["stamp", "--quiet", "--repo", startingDirectory.string, "--swift", output.string],
            environment: environment,
            inputFiles: RepositoryInputs(startingAt: startingDirectory)?.files ?? [],
            outputFiles: [output]
        )
    }
}
