import Foundation
import PackagePlugin

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
