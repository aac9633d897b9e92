import ArgumentParser
import EssentialsSupport

extension DiagnosticPrinter {
    /// Ends the process for an error of parsing (`command` nil) or running `command`, a
    /// subcommand of `root`, deciding by the error's type:
    ///
    /// - an `ExitCode` ends with that status and writes nothing;
    /// - a ``CommandFailure`` or a `ToolError` writes each error; when every one is a usage
    ///   error (`isUsageError`), the command's usage follows and the status is 64, otherwise
    ///   the failure's status (1 for a lone `ToolError`);
    /// - anything else is ArgumentParser's: what it exits 0 for (help, `--version`, a bare
    ///   command) prints as it prints it; its usage errors (64) are written as `TOOL: error:
    ///   MESSAGE` followed by its own usage lines; any other error as one line, with its status.
    public func exit(
        _ error: Error, root: ParsableCommand.Type, in command: ParsableCommand.Type?,
        isUsageError: (ToolError) -> Bool
    ) -> Never {
        if let exitCode = error as? ExitCode { root.exit(withError: exitCode) }
        if error is CommandFailure || error is ToolError {
            let failure = error as? CommandFailure ?? CommandFailure(errors: [error])
            for error in failure.errors { write(line(for: error)) }
            let usage =
                !failure.errors.isEmpty
                && failure.errors.allSatisfy { ($0 as? ToolError).map(isUsageError) ?? false }
            guard usage else { root.exit(withError: ExitCode(failure.status)) }
            let name = (command?.configuration.commandName).map { "\(tool) \($0)" } ?? tool
            let usageLine = command.map { root.usageString(for: $0) } ?? root.usageString()
            write("Usage: \(usageLine)\n  See '\(name) --help' for more information.")
            root.exit(withError: ExitCode.validationFailure)
        }
        let exitCode = root.exitCode(for: error)
        guard exitCode != .success else { root.exit(withError: error) }
        let message = root.message(for: error)
        guard exitCode == .validationFailure else {
            write("\(tool): error: \(message)")
            root.exit(withError: exitCode)
        }
        // ArgumentParser's full text of a usage error is its message (after a label of its
        // own), then help and usage lines, which are kept after the tool's error line.
        let full = root.fullMessage(for: error)
        let usageLines = full.range(ofText: message).map { String(full[$0.upperBound...]) } ?? "\n" + full
        write("\(tool): error: \(message)" + usageLines)
        root.exit(withError: ExitCode.validationFailure)
    }
}
