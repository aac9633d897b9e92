import ArgumentParser
import DBGenCommandLine
import FeedClient
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
import EssentialsSupport
import FileSystemKit

/// What the feed commands share: reading keys from `--key` (a path, `-` or `env:NAME`, never
/// the key itself), the clock (`SOURCE_DATE_EPOCH`), and errors as `WHAT: error: WHY`.
enum FeedCommandSupport {
    /// Runs `body`; a ``FeedPublisherError`` is printed as its `WHAT: error: WHY` line, any other
    /// error as dbgen prints it; both exit 1.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as FeedPublisherError {
            DBGenPrinter().write(error.line)
            throw ExitCode(1)
        } catch let error as ExitCode {
            throw error
        } catch {
            throw DBGenPrinter().fail(error)
        }
    }

    /// Reads the keys named by `arguments` (at most one may be `-`: standard input is read once).
    static func keys(_ arguments: [String]) throws -> [(key: Ed25519SigningKey, source: String)] {
        let sources = arguments.map(SigningKeySource.init(argument:))
        guard sources.filter({ $0 == .standardInput }).count <= 1 else {
            throw FeedPublisherError("-", "only one key can be read from standard input")
        }
        return try sources.map { (try $0.load(), $0.description) }
    }

    /// The public keys `--recovery-key` names (64 hexadecimal digits each).
    static func recoveryKeys(_ arguments: [String]) throws -> [PublicKey] {
        try arguments.map { try RecoveryKey.publicKey(fromHex: $0) }
    }

    /// The clock: `SOURCE_DATE_EPOCH` or now, with each role's lifetime (each bounded: refused
    /// before anything is written).
    static func clock(root: String, targets: String, snapshot: String, timestamp: String) throws -> FeedClock {
        var clock = try FeedClock.current()
        clock.rootLifetime = try FeedDuration.seconds(root, option: "--root-expires")
        clock.targetsLifetime = try FeedDuration.seconds(targets, option: "--targets-expires")
        clock.snapshotLifetime = try FeedDuration.seconds(snapshot, option: "--snapshot-expires")
        clock.timestampLifetime = try FeedDuration.seconds(timestamp, option: "--timestamp-expires")
        try clock.validate()
        return clock
    }

    /// A feed's location as given on the command line (`--against`, `feed pull`): an http(s)
    /// URL (fetched with FeedClient's `HTTPFetcher`) or a feed directory (read as `file:` URLs),
    /// checked as ``feedURL(_:rootArgument:directories:)`` checks it.
    static func location(_ text: String, rootArgument: String, directories: Bool = true) throws -> (
        url: URL, fetcher: Fetcher
    ) {
        let url = try feedURL(text, rootArgument: rootArgument, directories: directories)
        return (url, url.isFileURL ? FileFetcher() : HTTPFetcher())
    }

    /// The URL of a feed a command reads: an `http://` or `https://` address as given, or, when
    /// `directories` allows (`feed verify`), a feed directory's `file:` URL. `rootArgument` is
    /// `--root`'s, named when the two look swapped.
    ///
    /// - Throws: ``FeedPublisherError`` saying what is expected: another scheme, or no feed at
    ///   the path.
    static func feedURL(_ argument: String, rootArgument: String, directories: Bool) throws -> URL {
        let expected =
            directories
            ? "the feed's directory or its http:// or https:// address"
            : "the feed's http:// or https:// address (a feed directory is checked with `dbgen feed verify DIR --root ROOT`)"
        if directories && !argument.contains("://") {
            do {
                try FeedLayout(directory: argument).requireFeed()
            } catch let error as FeedPublisherError where FeedLayout(directory: rootArgument).isFeed {
                throw FeedPublisherError(
                    argument,
                    error.reason + "; \(rootArgument) is one: the feed comes first, its root.json after --root")
            }
            return URL(fileURLWithPath: argument, isDirectory: true)
        }
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw FeedPublisherError(argument, "not an http(s) URL: expected \(expected)")
        }
        return url
    }

    /// The trusted root `--root` names: a file's bytes.
    ///
    /// - Throws: ``FeedPublisherError`` naming the path: a directory, or unreadable.
    static func trustedRoot(_ path: String) throws -> Data {
        if FileManager.default.isDirectory(atPath: path) == true {
            throw FeedPublisherError(
                path, "a directory: --root takes the root.json file the app bundles (a copy of FEED/root.json)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FeedPublisherError(path, "cannot read the trusted root (\(String(cString: strerror(errno))))")
        }
        return data
    }

    /// Writes a note to standard error.
    static func note(_ text: String) {
        StandardStream.writeError(text + "\n")
    }

    /// The help of `--key`.
    static let keyHelp = ArgumentHelp(
        "The private key: a key file, - (standard input) or env:NAME (a variable holding the key file's text).",
        valueName: "key")

    /// The help of `--recovery-key`.
    static let recoveryKeyHelp = ArgumentHelp(
        "A recovery key's public key (the 64 hexadecimal digits `dbgen keys generate` printed; repeatable): "
            + "root names it for the root role only, so it can rotate away a lost or leaked key.",
        valueName: "public-key")

    /// The help of a role's lifetime option.
    static func lifetimeHelp(_ document: String) -> ArgumentHelp {
        ArgumentHelp(
            "How long a \(document) signed by this command stays valid: seconds, or a number of minutes, hours or "
                + "days (90m, 48h, 365d); at most ten years.",
            valueName: "duration")
    }
}

/// What every command that signs a feed takes: the feed directory, `--key` and the lifetimes
/// of the documents it signs (`--timestamp-expires`, `--root-expires`, `--targets-expires`,
/// `--snapshot-expires`).
struct FeedSigningOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The feed directory.", valueName: "feed"))
    var feed: String

    @Option(help: FeedCommandSupport.keyHelp)
    var key: String

    @Option(help: FeedCommandSupport.lifetimeHelp("new timestamp.json"))
    var timestampExpires = "1d"

    @Option(help: FeedCommandSupport.lifetimeHelp("new root.json"))
    var rootExpires = "365d"

    @Option(help: FeedCommandSupport.lifetimeHelp("new N.targets.json"))
    var targetsExpires = "365d"

    @Option(help: FeedCommandSupport.lifetimeHelp("new N.snapshot.json"))
    var snapshotExpires = "365d"

    /// The feed with its clock, and the keys `--key` and `others` name (in that order).
    func open(withKeys others: [String] = []) throws -> (Feed, [(key: Ed25519SigningKey, source: String)]) {
        let clock = try FeedCommandSupport.clock(
            root: rootExpires, targets: targetsExpires, snapshot: snapshotExpires, timestamp: timestampExpires)
        return (Feed(directory: feed, clock: clock), try FeedCommandSupport.keys([key] + others))
    }
}
