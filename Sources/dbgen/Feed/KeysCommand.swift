import ArgumentParser
import FeedPublisher
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
import TUF

extension DBGenCommand {
    /// `dbgen keys`: the feed's signing keys.
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the Ed25519 keys that sign a feed or sync tokens, and print their public keys.",
            subcommands: [Generate.self, JWKS.self])

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

        /// `dbgen keys jwks KEY...`.
        struct JWKS: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "jwks",
                abstract:
                    "Print the public keys of Ed25519 keys as a JSON Web Key Set (what the sync server verifies with).",
                discussion: """
                    Each KEY is a key file `dbgen keys generate` wrote, - (standard input, once) or \
                    env:NAME. Standard output gets {"keys":[…]}: per key kty OKP, crv Ed25519, x (the \
                    public key, base64url), kid (its JWK thumbprint, RFC 7638: what `dbgen sync token` \
                    puts in the token's header), alg EdDSA, use sig. No private part is printed.

                    Example:
                      dbgen keys jwks sync.key > jwks.json
                    """)

            @Argument(help: ArgumentHelp("The private keys (key files, - or env:NAME).", valueName: "key"))
            var keys: [String]

            func validate() throws {
                guard !keys.isEmpty else { throw ValidationError("name at least one key") }
            }

            func run() throws {
                try FeedCommandSupport.run {
                    print(try JSONWebKey.keySet(try FeedCommandSupport.keys(keys).map(\.key)))
                }
            }
        }
    }
}
