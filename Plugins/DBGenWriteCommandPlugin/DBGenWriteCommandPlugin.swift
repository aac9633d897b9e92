import PackagePlugin

/// `swift package dbgen-write …`: `swift package dbgen …` with the permission to write into
/// the package declared, so SwiftPM asks for it on a terminal and Xcode grants it (Xcode gives
/// a plugin only the permissions it declares). For building a database into the package,
/// `dbgen update` and `dbgen attach`; the read-only `dbgen` plugin needs no permission.
@main
struct DBGenWriteCommandPlugin: ToolForwardingCommandPlugin {
    static let toolName = "dbgen"
    static let declaresWritePermission = true

    /// `dbgen-plugin-tool` when built from source, else the prebuilt `dbgen` (DBGenTool.swift).
    static func locateTool(_ lookup: (String) throws -> PluginContext.Tool) throws -> PluginContext.Tool {
        try DBGenTool.locate(lookup)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DBGenWriteCommandPlugin: XcodeCommandPlugin {}
#endif
