import PackagePlugin

/// `swift package versionstamp …`: runs this package's `versionstamp` tool with the
/// arguments given, from the package directory, so `--repo` and plist paths resolve against it.
///
/// It declares no permission, so `print` (and `stamp --check`, `stamp --dry-run`) run with no
/// flag and no prompt; `stamp` writes, so it needs `--allow-writing-to-package-directory` (or
/// the `versionstamp-write` plugin, which declares the permission, as Xcode requires). The
/// plugin holds no logic of its own (see ToolRun.swift).
@main
struct VersionStampCommandPlugin: ToolForwardingCommandPlugin {
    static let toolName = "versionstamp"
    static let declaresWritePermission = false
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension VersionStampCommandPlugin: XcodeCommandPlugin {}
#endif
