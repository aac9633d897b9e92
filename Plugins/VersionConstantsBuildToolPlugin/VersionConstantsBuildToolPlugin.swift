import Foundation
import PackagePlugin

/// Build-tool plugin: generates `BuildVersion.swift`, the version constants written by
/// `versionstamp stamp --swift`, and compiles it into the target it is attached to.
///
/// The command's inputs are the git files that move with HEAD and the index (see
/// ``RepositoryInputs``), so the file is regenerated after a commit, checkout or `git add`,
/// and `versionstamp` rewrites it only when its content changes. Outside a repository (a
/// source tarball) there are no such inputs and `VERSIONSTAMP_VERSION` supplies the version;
/// it is passed to the command explicitly, so changing it also re-runs the command.
///
/// Release-numbering options (format, tag pattern, first parent, paths, offset, CI build
/// number) come from a `versionstamp.json` beside the target's sources or at the package root
/// (see ``VersionStampConfiguration``).
@main
struct VersionConstantsBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return [
            try VersionConstantsCommand(
                versionstamp: context.tool(named: "versionstamp").path,
                outputDirectory: context.pluginWorkDirectory,
                startingDirectory: context.package.directory,
                configuration: VersionStampConfiguration.searching([target.directory, context.package.directory])
            ).command(),
        ]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension VersionConstantsBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        [
            try VersionConstantsCommand(
                versionstamp: context.tool(named: "versionstamp").path,
                outputDirectory: context.pluginWorkDirectory,
                startingDirectory: context.xcodeProject.directory,
                configuration: VersionStampConfiguration.searching([context.xcodeProject.directory])
            ).command(),
        ]
    }
}
#endif
