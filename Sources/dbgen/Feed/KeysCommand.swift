import ArgumentParser
import FeedPublisher
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import TUF

extension DBGenCommand {
    /// `dbgen keys`: the feed's signing keys.
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Make the Ed25519 keys that sign a feed.",
            subcommands: [Generate.self])

        /// `dbgen keys generate --out KEY`.
        struct Generate: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "generate",
                abstract: "Write a new Ed25519 private key (mode 0600) and print its public key.",
                discussion: """
                    The key file holds the 32-byte seed as 64 hexadecimal digits and a newline, \
                    written atomically with mode 0600; an existing file is refused unless --force. \
                    Standard output gets the public key as one line of 64 hexadecimal digits \
                    (TUF's keyval.public, what an app may embed). Keep the key off the command \
                    line: the feed commands read it with --key PATH, --key - (standard input) or \
                    --key env:NAME.

                    Example:
                      dbgen keys generate --out release.key
                    """)

            @Option(help: ArgumentHelp("The key file to write.", valueName: "key"))
            var out: String

            @Flag(help: "Replace an existing file.")
            var force = false

            func run() throws {
                try FeedCommandSupport.run {
                    let key = Ed25519SigningKey()
                    try SigningKeyFile.write(key, to: out, replacing: force)
                    print(key.publicHex)
                }
            }
        }
    }
}
