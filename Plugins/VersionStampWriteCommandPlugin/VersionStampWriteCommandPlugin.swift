import PackagePlugin

/// `swift package versionstamp-write stamp …`: `swift package versionstamp …` with the
/// permission to write into the package declared, so SwiftPM asks for it on a terminal and
/// Xcode grants it (Xcode gives a plugin only the permissions it declares): the plugin that
/// stamps plists. The read-only `versionstamp` plugin needs no permission.
@main
struct VersionStampWriteCommandPlugin: ToolForwardingCommandPlugin {
    static let toolName = "versionstamp"
    static let declaresWritePermission = true
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension VersionStampWriteCommandPlugin: XcodeCommandPlugin {}
#endif
