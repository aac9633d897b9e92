import PackagePlugin

/// `swift package versionstamp …`: runs this package's `versionstamp` tool with the
/// arguments given, from the package directory, so `--repo` and plist paths resolve against it.
///
/// The plugin holds no logic of its own: the tool's output and diagnostics pass straight
/// through, and a failing tool fails the plugin with a one-line summary (see ToolRun.swift).
@main
struct VersionStampCommandPlugin: ToolForwardingCommandPlugin {
    static let toolName = "versionstamp"
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension VersionStampCommandPlugin: XcodeCommandPlugin {}
#endif
