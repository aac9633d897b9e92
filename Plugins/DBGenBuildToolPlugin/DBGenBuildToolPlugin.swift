import PackagePlugin

/// Build-tool plugin: builds every schema script named `NAME.dbgen.txt` in the target into
/// `NAME.sqlite` during the build, with `dbgen`. The databases are written to the plugin's
/// work directory and become resources of the target (`Bundle.module.url(forResource:
/// "NAME", withExtension: "sqlite")`).
///
/// Each script's inputs are the script and every file it names in `.import` / `.read`
/// lines (see ``ScriptInputs``), so the database is rebuilt exactly when one of them changes.
@main
struct DBGenBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try DatabaseBuildCommands(
            dbgen: context.tool(named: "dbgen").path,
            outputDirectory: context.pluginWorkDirectory
        ).commands(for: target.sourceFiles.map(\.path))
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DBGenBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try DatabaseBuildCommands(
            dbgen: context.tool(named: "dbgen").path,
            outputDirectory: context.pluginWorkDirectory
        ).commands(for: target.inputFiles.map(\.path))
    }
}
#endif
