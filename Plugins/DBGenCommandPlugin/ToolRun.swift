import Foundation
import PackagePlugin

/// A command plugin that only forwards its arguments to one of this package's tools, run
/// from the package (or Xcode project) directory so relative paths resolve against it.
/// Conforming plugins name the tool; the behaviour lives here, once, for every such plugin
/// (this file is linked into each plugin's directory).
///
/// Each tool has two plugins: one that declares no permission (`swift package dbgen`,
/// `swift package versionstamp`), so a command that only reads (`dbgen check`, `dbgen diff`,
/// `versionstamp print`) runs with no flag and no prompt, and one that declares
/// `writeToPackageDirectory` (`dbgen-write`, `versionstamp-write`), for Xcode, which grants a
/// plugin only the permissions it declares, and for a prompt on a terminal. SwiftPM grants
/// `--allow-writing-to-package-directory` to either.
protocol ToolForwardingCommandPlugin: CommandPlugin {
    /// The tool the plugin runs, as people know it (messages, the `-write` twin's name).
    static var toolName: String { get }
    /// The executable that runs as `toolName`, found through `lookup` (a context's `tool(named:)`).
    static func locateTool(_ lookup: (String) throws -> PluginContext.Tool) throws -> PluginContext.Tool
    /// True when the plugin declares `writeToPackageDirectory` in the manifest.
    static var declaresWritePermission: Bool { get }
}

extension ToolForwardingCommandPlugin {
    /// The executable named `toolName`.
    static func locateTool(_ lookup: (String) throws -> PluginContext.Tool) throws -> PluginContext.Tool {
        try lookup(toolName)
    }

    func performCommand(context: PluginContext, arguments: [String]) throws {
        try ToolRun(
            name: Self.toolName, tool: Self.locateTool(context.tool(named:)),
            workingDirectory: context.package.directory,
            workDirectory: context.pluginWorkDirectory, declaresWritePermission: Self.declaresWritePermission
        )
        .run(arguments)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ToolForwardingCommandPlugin {
    /// In Xcode the working directory is the project's directory. Xcode adds `--target NAME`
    /// for the targets selected in its dialog; the tools have no use for them, so they are dropped.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        _ = extractor.extractOption(named: "target")
        try ToolRun(
            name: Self.toolName, tool: Self.locateTool(context.tool(named:)),
            workingDirectory: context.xcodeProject.directory,
            workDirectory: context.pluginWorkDirectory, declaresWritePermission: Self.declaresWritePermission
        )
        .run(extractor.remainingArguments)
    }
}
#endif

/// Runs a package tool in a working directory, letting its output and diagnostics pass
/// through unchanged. A tool that fails makes this throw a one-line summary (its own
/// messages have already been shown, so they are not repeated).
///
/// The tool keeps its caches in the plugin's work directory, the one directory a sandboxed
/// plugin may always write: dbgen's up-to-date records through `DBGEN_CACHE_DIR`,
/// versionstamp's history cache through `--cache-dir` (given right after `print` or `stamp`,
/// so one the user gives later wins).
struct ToolRun {
    /// The tool as people know it (`dbgen`, `versionstamp`), whichever executable runs as it.
    let name: String
    let tool: PluginContext.Tool
    let workingDirectory: Path
    /// The plugin's work directory.
    let workDirectory: Path
    let declaresWritePermission: Bool

    func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.path.string)
        process.arguments = withCacheDirectory(arguments)
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory.string, isDirectory: true)
        var environment = ProcessInfo.processInfo.environment
        if name == "dbgen", environment["DBGEN_CACHE_DIR"] == nil {
            environment["DBGEN_CACHE_DIR"] = workDirectory.appending("dbgen-cache").string
        }
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ToolFailure(
                tool: name, reason: process.terminationReason, status: process.terminationStatus,
                declaresWritePermission: declaresWritePermission)
        }
    }
}

extension ToolRun {
    /// `arguments` with versionstamp's `--cache-dir` in the work directory after its subcommand.
    func withCacheDirectory(_ arguments: [String]) -> [String] {
        guard name == "versionstamp", let subcommand = arguments.first, ["print", "stamp"].contains(subcommand)
        else { return arguments }
        return [subcommand, "--cache-dir", workDirectory.appending("versionstamp-cache").string] + arguments.dropFirst()
    }
}

/// The tool ended with a non-zero exit status or a signal.
struct ToolFailure: Error, CustomStringConvertible {
    let tool: String
    let reason: Process.TerminationReason
    let status: Int32
    let declaresWritePermission: Bool

    var description: String {
        let summary =
            reason == .exit
            ? "\(tool) failed with exit status \(status)"
            : "\(tool) was terminated by signal \(status)"
        #if os(macOS)
        // Plugins run sandboxed on macOS: a write into the package fails unless granted.
        if !declaresWritePermission {
            return summary + " (this plugin may not write into the package: if the command writes there, "
                + "add --allow-writing-to-package-directory or use `swift package \(tool)-write`)"
        }
        #endif
        return summary
    }
}
