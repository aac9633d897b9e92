import Foundation
import PackagePlugin

/// The build commands that stamp the built copy of each `NAME.versionstamp.plist` of the
/// target: `versionstamp stamp SOURCE --output NAME.plist` into the plugin's work directory,
/// which SwiftPM makes a resource of the target (`Bundle.module.url(forResource: "NAME",
/// withExtension: "plist")`). The source in the repository is never written, so stamping
/// never makes the work tree dirty and the placeholder is there for the next build.
///
/// The version is the one `BuildVersion.swift` gets (the same `versionstamp.json`, cache and
/// inputs); the mode is versionstamp's default: the `r0000` placeholder when the file has it,
/// else `CFBundleVersion`.
struct StampedPlistCommands {
    /// The suffix that marks a plist to stamp.
    static let suffix = ".versionstamp.plist"

    let version: VersionConstantsCommand

    /// True for `NAME.versionstamp.plist` with a non-empty NAME.
    static func isTemplate(_ file: Path) -> Bool {
        file.lastComponent.hasSuffix(suffix) && file.lastComponent != suffix
    }

    /// The stamped copy of `template`: `NAME.plist` in the work directory.
    func output(of template: Path) -> Path {
        version.workDirectory.appending(String(template.lastComponent.dropLast(Self.suffix.count)) + ".plist")
    }

    /// One command per template among `files`; reports stamped copies whose template is gone.
    func commands(for files: [Path], targetName: String) throws -> [Command] {
        let templates = files.filter(Self.isTemplate).sorted { $0.string < $1.string }
        try DuplicateResourceName.check(templates, verb: "give") { output(of: $0).lastComponent }
        let outputs = templates.map(output(of:))
        let leftovers = LeftoverOutputs(workDirectory: version.workDirectory, pathExtension: "plist")
        for name in leftovers.removeAll(except: outputs) {
            let template = String(name.dropLast(".plist".count)) + Self.suffix
            Diagnostics.warning(
                leftovers.removeBundleCopies(of: name, target: targetName, source: "'\(template)'"), file: nil,
                line: nil)
        }
        return zip(templates, outputs).map { template, output in
            .buildCommand(
                displayName: "Stamping \(output.lastComponent) from \(template.lastComponent) with versionstamp",
                executable: version.versionstamp,
                arguments: ["stamp", template.string, "--output", output.string, "--quiet"] + version.sharedArguments,
                environment: version.environment,
                inputFiles: version.sharedInputs + [template],
                outputFiles: [output]
            )
        }
    }
}
