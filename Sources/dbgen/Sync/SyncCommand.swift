import ArgumentParser
import DBGenCommandLine
import FeedPublisher
import FileSystemKit
import EssentialsSupport
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
import SyncClient

extension DBGenCommand {
    /// `dbgen sync`: one sync of a user database file, and `dbgen sync token`.
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sync a user database with a Shipyard sync server, or make a bearer token for one.",
            discussion: """
                dbgen sync USERDB --server URL --token TOKEN runs one sync with SyncClient, the code \
                an app links: it sends every change queued in USERDB up to its start, receives every \
                change the server has, and applies them. Exit 0: the server has every local change \
                and the device every change the server had. Exit 1 with WHAT: error: WHY otherwise; \
                nothing local is lost (every unsent change stays queued, the batch in flight is sent \
                again next time).

                Example:
                  dbgen sync user.sqlite --server https://sync.example.com \\
                    --token env:SYNC_TOKEN
                  dbgen sync token --key sync.key --user alice --expires 3600
                """,
            subcommands: [Database.self, Token.self],
            defaultSubcommand: Database.self)

        /// `dbgen sync USERDB --server URL --token TOKEN [--json]`.
        struct Database: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "database", abstract: "Sync a user database file (the default: dbgen sync USERDB …).")

            @Argument(help: ArgumentHelp("The user database (its schema declares what syncs).", valueName: "userdb"))
            var database: String

            @Option(help: ArgumentHelp("The sync server's base URL.", valueName: "url"))
            var server: String

            @Option(
                help: ArgumentHelp(
                    "The bearer token: the token, - (standard input) or env:NAME (a variable holding it).",
                    valueName: "token"))
            var token: String

            @Flag(help: "Print a JSON summary on standard output.")
            var json = false

            func run() throws {
                let printer = DBGenPrinter()
                guard let url = URL(string: server), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https"
                else {
                    printer.write("\(server): error: not an http or https URL")
                    throw ExitCode(1)
                }
                guard FileManager.default.fileExists(atPath: database) else {
                    printer.write("\(database): error: no such file")
                    throw ExitCode(1)
                }
                let bearer: String
                do {
                    bearer = try TokenSource(argument: token).load()
                } catch let error as FeedPublisherError {
                    printer.write(error.line)
                    throw ExitCode(1)
                }
                let sync = UserDatabaseSync(databasePath: database, serverURL: url, token: { bearer })
                switch AsyncWait.result(of: { try await sync.sync() }) {
                case .success(let report):
                    if json {
                        print(Self.json(report))
                    } else {
                        StandardStream.writeError(Self.summary(report, database) + "\n")
                    }
                case .failure(let error as SyncClientError):
                    let subject: String
                    switch error.subject {
                    case "user database": subject = database
                    case "server": subject = server
                    default: subject = error.subject
                    }
                    printer.write("\(subject): error: \(error.reason)")
                    throw ExitCode(1)
                case .failure(let error):
                    printer.write("\(database): error: \(error)")
                    throw ExitCode(1)
                }
            }

            static func summary(_ report: SyncReport, _ database: String) -> String {
                "dbgen: synced \(database): sent \(report.sent), received \(report.received), "
                    + "conflicts \(report.conflicts) (\(report.requests) request\(report.requests == 1 ? "" : "s"), "
                    + "\(report.bytesSent) bytes sent, \(report.bytesReceived) received)"
            }

            static func json(_ report: SyncReport) -> String {
                let object: [String: UInt64] = [
                    "sent": UInt64(report.sent), "received": UInt64(report.received),
                    "conflicts": UInt64(report.conflicts), "requests": UInt64(report.requests),
                    "bytes_sent": UInt64(report.bytesSent), "bytes_received": UInt64(report.bytesReceived),
                    "cursor": report.cursor,
                ]
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let data = (try? encoder.encode(object)) ?? Data()
                return String(decoding: data, as: UTF8.self)
            }
        }

        /// `dbgen sync token --key KEY --user ID [--space ID] [--expires SECONDS]`.
        struct Token: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print a bearer token for the sync server: an EdDSA JWT signed with an Ed25519 key.",
                discussion: """
                    The key is one `dbgen keys generate` made; the server verifies the token with \
                    the key set `dbgen keys jwks` prints (its kid is the key's JWK thumbprint). \
                    Claims: sub (the user), iat, exp, and space when --space is given (a shared \
                    space the token grants). Standard output gets the token and a newline.

                    Example:
                      dbgen sync token --key sync.key --user alice --expires 3600
                    """)

            @Option(help: FeedCommandSupport.keyHelp)
            var key: String

            @Option(help: ArgumentHelp("The user (the token's sub).", valueName: "id"))
            var user: String

            @Option(help: ArgumentHelp("A shared space the token grants (the space claim).", valueName: "id"))
            var space: String?

            @Option(help: ArgumentHelp("How long the token stays valid, in seconds.", valueName: "seconds"))
            var expires = 3600

            func run() throws {
                try FeedCommandSupport.run {
                    guard !user.isEmpty else { throw FeedPublisherError("--user", "the user is empty") }
                    guard expires > 0 else {
                        throw FeedPublisherError("--expires", "\(expires) is not a positive number of seconds")
                    }
                    let signing = try FeedCommandSupport.keys([key])[0].key
                    let now = Int(Date().timeIntervalSince1970)
                    var claims: [String: JSONWebKey.Claim] = [
                        "sub": .string(user), "iat": .integer(now), "exp": .integer(now + expires),
                    ]
                    if let space { claims["space"] = .string(space) }
                    print(try JSONWebKey.token(claims: claims, key: signing))
                }
            }
        }
    }
}

/// Where `--token` comes from: the token itself, standard input (`-`) or a variable (`env:NAME`).
struct TokenSource {
    let argument: String

    /// The token, surrounding whitespace removed.
    ///
    /// - Throws: ``FeedPublisherError`` naming `--token` (never quoting the token).
    func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let text: String
        if argument == "-" {
            text = String(decoding: (try? StandardStream.readInput()) ?? [], as: UTF8.self)
        } else if argument.hasPrefix("env:") {
            let name = String(argument.dropFirst(4))
            guard !name.isEmpty, let value = environment[name] else {
                throw FeedPublisherError("--token", "the environment variable \(name) is not set")
            }
            text = value
        } else {
            text = argument
        }
        let token = text.trimmingWhitespaceAndNewlines()
        guard !token.isEmpty else { throw FeedPublisherError("--token", "the token is empty") }
        return token
    }
}
