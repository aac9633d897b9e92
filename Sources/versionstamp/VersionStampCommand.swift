import ArgumentParser
import VersionStampKit

@main
struct VersionStampCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versionstamp",
        abstract: "Derive a build version from the git revision and stamp it into plist files.",
        version: VersionStampKit.version,
        subcommands: [Print.self, Stamp.self]
    )
}
