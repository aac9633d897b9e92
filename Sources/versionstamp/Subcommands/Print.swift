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

extension VersionStampCommand {
    /// `versionstamp print`: prints the version derived from the git revision.
    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print",
            abstract: "Print the version derived from the git revision.",
            discussion: """
                Format tokens (each equals git's own answer for the repository):
                \(VersionToken.helpText)

                VERSIONSTAMP_VERSION in the environment replaces the repository: its value is \
                printed as is, whatever the format, and no repository is needed.

                {count} is the build number: the commit count (or the integer in \
                --build-number-env's variable when it is set) plus --offset.
                """
        )

        @OptionGroup
        var repository: RepositoryOptions

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("The version format (default {count}); may start with -.", valueName: "fmt"))
        var format: String?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("What {dirty} renders when tracked files changed; may start with -.", valueName: "m"))
        var dirtyMarker: String = "M"

        @OptionGroup(title: "Release numbering")
        var numbering: ReleaseNumberingOptions

        @OptionGroup var configurationFile: ConfigurationFileOption

        func run() throws {
            do {
                let configuration = try configurationFile.load()
                let context = try VersionContext.load(
                    repository: repository.repo, environment: ProcessInfo.processInfo.environment,
                    query: numbering.query(configuredBy: configuration),
                    buildNumber: numbering.buildNumber(configuredBy: configuration),
                    caching: repository.caching)
                print(try context.render(format ?? configuration.format ?? "{count}", dirtyMarker: dirtyMarker))
            } catch {
                throw CommandFailure(errors: [error])
            }
        }
    }
}
