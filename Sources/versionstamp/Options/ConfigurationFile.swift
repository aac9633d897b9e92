import ArgumentParser
import VersionStampKit

/// `--config FILE`: release-numbering options read from a JSON file (`versionstamp.json`)
/// when the command runs; an option given on the command line wins over the file's.
struct ConfigurationFileOption: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read options from this JSON file (versionstamp.json: format, tagPattern, firstParent, paths, offset, buildNumberEnv); the command line wins.",
            valueName: "file"))
    var path: String?

    /// The file's options, or none when no file is given.
    func load() throws -> VersionStampConfiguration {
        try path.map { try VersionStampConfiguration.load(from: $0) } ?? VersionStampConfiguration()
    }
}

extension ReleaseNumberingOptions {
    /// The history to read: the command line's options, the file's where it gives none.
    func query(configuredBy configuration: VersionStampConfiguration) -> RevisionQuery {
        configuration.filling(query)
    }

    /// The build number: the command line's options, the file's where it gives none.
    func buildNumber(configuredBy configuration: VersionStampConfiguration) -> BuildNumber {
        configuration.filling(buildNumber, givenOffset: offsetText != nil)
    }
}
