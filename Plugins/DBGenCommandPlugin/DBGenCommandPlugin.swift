import Foundation
import PackagePlugin

/// `swift package dbgen …`: runs this package's `dbgen` tool with the arguments given,
/// from the package directory, so relative paths (`schema/schema.txt`, `-o Resources/x.sqlite`)
/// resolve against it.
///
/// The plugin holds no logic of its own: the tool's output and diagnostics pass straight
/// through, and a failing tool fails the plugin with a one-line summary.
@main
struct DBGenCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        try ToolRun(tool: context.tool(named: "dbgen"), workingDirectory: context.package.directory)
            .run(arguments)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DBGenCommandPlugin: XcodeCommandPlugin {
    /// In Xcode the working directory is the project's directory. Xcode adds `--target NAME`
    /// for the targets selected in its dialog; dbgen has no use for them, so they are dropped.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        _ = extractor.extractOption(named: "target")
        try ToolRun(tool: context.tool(named: "dbgen"), workingDirectory: context.xcodeProject.directory)
            .run(extractor.remainingArguments)
    }
}
#endif
