import PackagePlugin

/// `swift package dbgen …`: runs this package's `dbgen` tool with the arguments given,
/// from the package directory, so relative paths (`schema/schema.txt`, `-o Resources/x.sqlite`)
/// resolve against it.
///
/// It declares no permission, so `dbgen check` and `dbgen diff` run with no flag and no
/// prompt; a command that writes into the package needs `--allow-writing-to-package-directory`
/// (or the `dbgen-write` plugin, which declares the permission). The plugin holds no logic of
/// its own: the tool's output and diagnostics pass straight through, and a failing tool fails
/// the plugin with a one-line summary (see ToolRun.swift).
@main
struct DBGenCommandPlugin: ToolForwardingCommandPlugin {
    static let toolName = "dbgen"
    static let declaresWritePermission = false

    /// `dbgen-plugin-tool` when built from source, else the prebuilt `dbgen` (DBGenTool.swift).
    static func locateTool(_ lookup: (String) throws -> PluginContext.Tool) throws -> PluginContext.Tool {
        try DBGenTool.locate(lookup)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DBGenCommandPlugin: XcodeCommandPlugin {}
#endif
