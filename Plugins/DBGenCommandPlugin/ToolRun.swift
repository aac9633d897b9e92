import Foundation
import PackagePlugin

/// A command plugin that only forwards its arguments to one of this package's tools, run
/// from the package (or Xcode project) directory so relative paths resolve against it.
/// Conforming plugins name the tool; the behaviour lives here, once, for both plugins
/// (this file is linked into each plugin's directory).
protocol ToolForwardingCommandPlugin: CommandPlugin {
    /// The executable product the plugin runs.
    static var toolName: String { get }
}

extension ToolForwardingCommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) throws {
        try ToolRun(tool: context.tool(named: Self.toolName), workingDirectory: context.package.directory)
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
        try ToolRun(tool: context.tool(named: Self.toolName), workingDirectory: context.xcodeProject.directory)
            .run(extractor.remainingArguments)
    }
}
#endif

/// Runs a package tool in a working directory, letting its output and diagnostics pass
/// through unchanged. A tool that fails makes this throw a one-line summary (its own
/// messages have already been shown, so they are not repeated).
struct ToolRun {
    let tool: PluginContext.Tool
    let workingDirectory: Path

    func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.path.string)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory.string, isDirectory: true)
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ToolFailure(tool: tool.name, reason: process.terminationReason, status: process.terminationStatus)
        }
    }
}

/// The tool ended with a non-zero exit status or a signal.
struct ToolFailure: Error, CustomStringConvertible {
    let tool: String
    let reason: Process.TerminationReason
    let status: Int32

    var description: String {
        reason == .exit
            ? "\(tool) failed with exit status \(status)"
            : "\(tool) was terminated by signal \(status)"
    }
}
