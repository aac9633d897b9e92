import PackagePlugin

/// Build-tool plugin: builds every schema script named `NAME.dbgen.txt` in the target into
/// `NAME.sqlite` during the build, with `dbgen`. The databases are written to the plugin's
/// work directory and become resources of the target (`Bundle.module.url(forResource:
/// "NAME", withExtension: "sqlite")`).
///
/// A database is rebuilt exactly when a file under its script's directory, or the target's
/// `dbgen.json` (options such as `{"strict": true}`, read by dbgen when it runs), changes; see
/// ``DatabaseBuildCommands``. A target with no script, and a database whose script was
/// renamed or removed, get a warning (that database is
/// removed from the plugin's outputs and the target's bundle).
@main
struct DBGenBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try DatabaseBuildCommands(
            dbgen: DBGenTool.locate(context.tool(named:)).path,
            workDirectory: context.pluginWorkDirectory,
            targetName: target.name,
            targetDirectory: target.directory
        ).commands(for: target.sourceFiles.map(\.path))
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DBGenBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try DatabaseBuildCommands(
            dbgen: DBGenTool.locate(context.tool(named:)).path,
            workDirectory: context.pluginWorkDirectory,
            targetName: target.displayName,
            targetDirectory: context.xcodeProject.directory
        ).commands(for: target.inputFiles.map(\.path))
    }
}
#endif
