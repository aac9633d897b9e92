import Foundation
import PackagePlugin

/// Build-tool plugin: generates `BuildVersion.swift`, the version constants written by
/// `versionstamp stamp --swift`, and compiles it into the target it is attached to.
///
/// The command's inputs are the git files that move with HEAD and the index (see
/// ``RepositoryInputs``) and the `versionstamp.json` in use, so the file is regenerated after a
/// commit, checkout or `git add` and after an edit of the options, and `versionstamp` rewrites
/// it only when its content changes. Outside a repository (a source tarball)
/// `VERSIONSTAMP_VERSION` supplies the version.
///
/// Each `NAME.versionstamp.plist` of the target is stamped into `NAME.plist`, a resource of the
/// target, leaving the source untouched (see ``StampedPlistCommands``): the way to ship a
/// stamped plist without stamping a file the repository tracks.
///
/// Release-numbering options (format, tag pattern, first parent, paths, offset, CI build
/// number) come from a `versionstamp.json` beside the target's sources or at the package root,
/// read by versionstamp when the command runs (see ``VersionConstantsCommand``).
@main
struct VersionConstantsBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let command = VersionConstantsCommand(
            versionstamp: try context.tool(named: "versionstamp").path,
            workDirectory: context.pluginWorkDirectory,
            startingDirectory: context.package.directory,
            configuration: VersionConstantsCommand.configuration(in: [target.directory, context.package.directory]),
            planMarker: context.pluginWorkDirectory.appending(VersionConstantsCommand.planMarkerName)
        )
        let files = target.sourceFiles.map(\.path)
        // SwiftPM plans again when its environment changes; the values reach the tool only
        // if the commands run again.
        command.markNewPlan()
        return [command.command()]
            + (try StampedPlistCommands(version: command).commands(for: files, targetName: target.name))
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension VersionConstantsBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let command = VersionConstantsCommand(
            versionstamp: try context.tool(named: "versionstamp").path,
            workDirectory: context.pluginWorkDirectory,
            startingDirectory: context.xcodeProject.directory,
            configuration: VersionConstantsCommand.configuration(in: [context.xcodeProject.directory])
        )
        return [command.command()]
            + (try StampedPlistCommands(version: command).commands(
                for: target.inputFiles.map(\.path),
                targetName: target.displayName))
    }
}
#endif
