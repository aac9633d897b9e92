import PackagePlugin

/// `swift package dbgen …`: runs this package's `dbgen` tool with the arguments given,
/// from the package directory, so relative paths (`schema/schema.txt`, `-o Resources/x.sqlite`)
/// resolve against it.
///
/// The plugin holds no logic of its own: the tool's output and diagnostics pass straight
/// through, and a failing tool fails the plugin with a one-line summary (see ToolRun.swift).
@main
struct DBGenCommandPlugin: ToolForwardingCommandPlugin {
    static let toolName = "dbgen"
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DBGenCommandPlugin: XcodeCommandPlugin {}
#endif
