import ArgumentParser
import Foundation
import VersionStampKit

/// `versionstamp`: `print` and `stamp`, which share the option groups below. Every error of
/// every subcommand, the argument parser's included, is written by ``Diagnostics``.
@main
struct VersionStampCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versionstamp",
        abstract: "Derive a build version from the git revision and stamp it into plist files.",
        version: VersionStampKit.version,
        subcommands: [Print.self, Stamp.self]
    )

    /// Parses the arguments and runs the subcommand; a failure of either ends in ``Diagnostics``.
    static func main() {
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            Diagnostics.exit(error, in: nil)
        }
        do {
            try command.run()
        } catch {
            Diagnostics.exit(error, in: type(of: command))
        }
    }
}

/// How versionstamp tells people about failures, the one place that writes them: each error is
/// one line on standard error, `PATH[:LINE]: error: MESSAGE` when it concerns a file (a
/// ``VersionStampError`` with a path), `versionstamp: error: MESSAGE` otherwise. A usage error
/// (a bad option, or a ``VersionStampError/Code/isUsage`` error) is followed by the
/// subcommand's usage and exits 64; any other failure exits 1 (`stamp --check`: 2).
enum Diagnostics {
    /// What a subcommand throws when it fails: the errors to report, and the exit status unless
    /// they are all usage errors.
    struct Failure: Error {
        var errors: [Error]
        var status: Int32 = 1
    }

    /// Ends the process for an error of parsing or running `command` (nil when parsing failed).
    static func exit(_ error: Error, in command: ParsableCommand.Type?) -> Never {
        if let exitCode = error as? ExitCode { VersionStampCommand.exit(withError: exitCode) }
        if error is Failure || error is VersionStampError {
            let failure = error as? Failure ?? Failure(errors: [error])
            for error in failure.errors {
                write((error as? VersionStampError)?.description ?? "versionstamp: error: \(error)")
            }
            let usage = !failure.errors.isEmpty
                && failure.errors.allSatisfy { ($0 as? VersionStampError)?.code.isUsage ?? false }
            guard usage else { VersionStampCommand.exit(withError: ExitCode(failure.status)) }
            let name = (command?.configuration.commandName).map { "versionstamp \($0)" } ?? "versionstamp"
            let usageLine = command.map { VersionStampCommand.usageString(for: $0) } ?? VersionStampCommand.usageString()
            write("Usage: \(usageLine)\n  See '\(name) --help' for more information.")
            VersionStampCommand.exit(withError: ExitCode.validationFailure)
        }
        // The argument parser's own errors and requests: help, --version and a bare
        // `versionstamp` print as it prints them (exit 0); its usage errors are written here.
        let exitCode = VersionStampCommand.exitCode(for: error)
        guard exitCode != .success else { VersionStampCommand.exit(withError: error) }
        let message = VersionStampCommand.message(for: error)
        guard exitCode == .validationFailure else {
            write("versionstamp: error: \(message)")
            VersionStampCommand.exit(withError: exitCode)
        }
        // Its full text is "Error: MESSAGE", then the usage lines, which are kept.
        let full = VersionStampCommand.fullMessage(for: error)
        let parserLine = "Error: " + message
        write("versionstamp: error: \(message)" + (full.hasPrefix(parserLine) ? String(full.dropFirst(parserLine.count)) : "\n" + full))
        VersionStampCommand.exit(withError: ExitCode.validationFailure)
    }

    /// Writes `text` and a newline to standard error.
    private static func write(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Where the revision is read from, shared by `print` and `stamp`.
struct RepositoryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where repository discovery starts (like git -C).", valueName: "dir"))
    var repo: String?

    @Option(name: .customLong("cache-dir"),
            help: ArgumentHelp("Keep the history cache in this directory instead of the repository's git directory (for a sandboxed build that may write only there).", valueName: "dir"))
    var cacheDirectory: String?

    /// Where history answers are remembered between runs.
    var caching: HistoryCaching {
        cacheDirectory.map(HistoryCaching.inDirectory) ?? .inGitDirectory
    }

    func validate() throws {
        if let cacheDirectory, cacheDirectory.isEmpty { throw ValidationError("--cache-dir must name a directory") }
    }
}

/// The release-numbering options shared by `print` and `stamp`.
struct ReleaseNumberingOptions: ParsableArguments {
    @Option(name: .customLong("tag-pattern"),
            help: ArgumentHelp("Only tags matching this glob count for {tag}, {distance}, {describe}, {version} (git describe --match).", valueName: "glob"))
    var tagPattern: String?

    @Flag(name: .customLong("first-parent"), help: "Count along first parents only, and look for the nearest tag along them too (git rev-list --first-parent, git describe --first-parent).")
    var firstParent = false

    @Option(name: .customLong("path"),
            help: ArgumentHelp("Count only commits touching this path, relative to --repo or the current directory (repeatable; git rev-list HEAD -- PATH).", valueName: "dir"))
    var paths: [String] = []

    @Option(name: .customLong("offset"), parsing: .unconditional,
            help: ArgumentHelp("Add N to {count} (may be negative: --offset -5).", valueName: "n"))
    var offsetText: String?

    @Option(name: .customLong("build-number-env"),
            help: ArgumentHelp("{count} is the integer in this environment variable when it is set (CI_BUILD_NUMBER, GITHUB_RUN_NUMBER).", valueName: "name"))
    var buildNumberEnv: String?

    /// The history the revision is read over.
    var query: RevisionQuery {
        RevisionQuery(tagPattern: tagPattern, firstParent: firstParent, paths: paths)
    }

    /// `--offset` as a number (`validate()` has checked it).
    var offset: Int { offsetText.flatMap { Int($0) } ?? 0 }

    /// How `{count}` becomes the build number.
    var buildNumber: BuildNumber {
        BuildNumber(offset: offset, environmentVariable: buildNumberEnv)
    }

    func validate() throws {
        if let offsetText, Int(offsetText) == nil {
            throw ValidationError("--offset '\(offsetText)' is not an integer (such as 1000 or -5)")
        }
        if let tagPattern, tagPattern.isEmpty { throw ValidationError("--tag-pattern must not be empty") }
        if let buildNumberEnv, buildNumberEnv.isEmpty { throw ValidationError("--build-number-env must name a variable") }
        if paths.contains(where: \.isEmpty) { throw ValidationError("--path must not be empty") }
    }
}
