import ArgumentParser
import CommandLineDiagnostics
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import VersionStampKit

/// `versionstamp`: `print` and `stamp`, which share the option groups below. Every error of
/// every subcommand, the argument parser's included, is written by ``printer``.
@main
struct VersionStampCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versionstamp",
        abstract: "Derive a build version from the git revision and stamp it into plist files.",
        version: VersionStampKit.version,
        subcommands: [Print.self, Stamp.self]
    )

    /// How versionstamp tells people about failures: each error is one line on standard error,
    /// `PATH[:LINE]: error: MESSAGE` when it concerns a file (a ``VersionStampError`` with a
    /// path), `versionstamp: error: MESSAGE` otherwise. A usage error (a bad option, or a
    /// ``VersionStampError/Code/isUsage`` error) is followed by the subcommand's usage and exits
    /// 64; any other failure exits 1 (`stamp --check`: 2). A subcommand throws a
    /// `CommandFailure` with the errors to write.
    static let printer = DiagnosticPrinter<VersionStampError>(tool: "versionstamp")

    /// Parses the arguments and runs the subcommand; a failure of either ends in ``printer``.
    static func main() {
        SkippedCertificateLoading.apply()
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            printer.exit(error, root: self, in: nil, isUsageError: \.code.isUsage)
        }
        do {
            try command.run()
        } catch {
            printer.exit(error, root: self, in: type(of: command), isUsageError: \.code.isUsage)
        }
    }
}

/// Where the revision is read from, shared by `print` and `stamp`.
struct RepositoryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where repository discovery starts (like git -C).", valueName: "dir"))
    var repo: String?

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "Keep the history cache in this directory instead of the repository's git directory (for a sandboxed build that may write only there).",
            valueName: "dir"))
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
    @Option(
        name: .customLong("tag-pattern"),
        help: ArgumentHelp(
            "Only tags matching this glob count for {tag}, {distance}, {describe}, {version} (git describe --match).",
            valueName: "glob"))
    var tagPattern: String?

    @Flag(
        name: .customLong("first-parent"),
        help:
            "Count along first parents only, and look for the nearest tag along them too (git rev-list --first-parent, git describe --first-parent)."
    )
    var firstParent = false

    @Option(
        name: .customLong("path"),
        help: ArgumentHelp(
            "Count only commits touching this path, relative to --repo or the current directory (repeatable; git rev-list HEAD -- PATH).",
            valueName: "dir"))
    var paths: [String] = []

    @Option(
        name: .customLong("offset"), parsing: .unconditional,
        help: ArgumentHelp("Add N to {count} (may be negative: --offset -5).", valueName: "n"))
    var offsetText: String?

    @Option(
        name: .customLong("build-number-env"),
        help: ArgumentHelp(
            "{count} is the integer in this environment variable when it is set (CI_BUILD_NUMBER, GITHUB_RUN_NUMBER).",
            valueName: "name"))
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
        if let buildNumberEnv, buildNumberEnv.isEmpty {
            throw ValidationError("--build-number-env must name a variable")
        }
        if paths.contains(where: \.isEmpty) { throw ValidationError("--path must not be empty") }
    }
}
