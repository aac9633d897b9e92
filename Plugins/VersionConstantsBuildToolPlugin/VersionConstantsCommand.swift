import Foundation
import PackagePlugin

/// The build command that writes the version constants file with `versionstamp`.
///
/// Its inputs are the git files that move with HEAD and the index (``RepositoryInputs``) and
/// the `versionstamp.json` in use, whose options versionstamp reads when it runs (`--config`):
/// an edit of the file re-runs the command with the new options. The environment the tool
/// reads (`VERSIONSTAMP_VERSION`, the variable the file names in `buildNumberEnv`) reaches it
/// as SwiftPM's own environment; SwiftPM plans the build again whenever its environment
/// changes, and the plugin then rewrites its plan marker, an input of every command, so the
/// commands run again with the new values. The plugin never removes the generated file:
/// versionstamp rewrites it only when its content changes, and then in a later whole second
/// than the version it replaces, which it can only do when that version is still there
/// (swift-driver compares a source's modification time to the second; a file removed at
/// planning and written again within the second of the last build's version was skipped, and
/// the program kept the old version). The plugin reads nothing from the configuration itself.
struct VersionConstantsCommand {
    /// The generated file's name (and so the name that shows in build logs).
    static let fileName = "BuildVersion.swift"
    /// The configuration file's name, looked for beside the target's sources, then at the
    /// package (or Xcode project) root.
    static let configurationFileName = "versionstamp.json"
    /// The variable that replaces the repository where there is none (a source tarball).
    static let versionVariable = "VERSIONSTAMP_VERSION"

    let versionstamp: Path
    let workDirectory: Path
    /// Where repository discovery starts (the package or Xcode project directory); the
    /// configuration's paths are relative to it.
    let startingDirectory: Path
    /// The `versionstamp.json` in use, if any.
    let configuration: Path?
    /// The file ``markNewPlan()`` rewrites in each plan, an input of every command; nil where
    /// the plan is kept (Xcode).
    var planMarker: Path? = nil

    /// The plan marker's name in the work directory.
    static let planMarkerName = "versionstamp-plan"

    /// The first `versionstamp.json` in `directories`, by existence only.
    static func configuration(in directories: [Path]) -> Path? {
        directories.map { $0.appending(configurationFileName) }
            .first { FileManager.default.fileExists(atPath: $0.string) }
    }

    /// The arguments every versionstamp command of the plugin shares: the repository, the
    /// configuration, and the history cache in the work directory (a build command may not
    /// write the repository's git directory in the sandbox).
    var sharedArguments: [String] {
        ["--repo", startingDirectory.string, "--cache-dir", workDirectory.appending("versionstamp-cache").string]
            + (configuration.map { ["--config", $0.string] } ?? [])
    }

    /// The inputs every versionstamp command of the plugin shares.
    var sharedInputs: [Path] {
        (RepositoryInputs(startingAt: startingDirectory)?.files ?? []) + (configuration.map { [$0] } ?? [])
            + (planMarker.map { [$0] } ?? [])
    }

    /// The variable passed explicitly, so that a change of its value re-runs the command even
    /// where the plan is kept (Xcode).
    var environment: [String: String] {
        ProcessInfo.processInfo.environment[Self.versionVariable].map { [Self.versionVariable: $0] } ?? [:]
    }

    /// Rewrites the plan marker (a new identifier each time), so every command of the plugin
    /// runs at least once in this plan, with the outputs left in place for versionstamp to
    /// compare with (see the type's comment).
    func markNewPlan() {
        guard let planMarker else { return }
        try? FileManager.default.createDirectory(atPath: workDirectory.string, withIntermediateDirectories: true)
        try? Data((UUID().uuidString + "\n").utf8).write(to: URL(fileURLWithPath: planMarker.string), options: .atomic)
    }

    func command() -> Command {
        let output = workDirectory.appending(Self.fileName)
        return .buildCommand(
            displayName: "Generating \(Self.fileName) with versionstamp",
            executable: versionstamp,
            arguments: ["stamp", "--quiet", "--swift", output.string] + sharedArguments,
            environment: environment,
            inputFiles: sharedInputs,
            outputFiles: [output]
        )
    }
}
