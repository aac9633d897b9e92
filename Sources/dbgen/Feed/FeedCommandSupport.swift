import ArgumentParser
import DBGenCommandLine
import FeedClient
import FeedPublisher
import Foundation
import TUF

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

    /// The clock: `SOURCE_DATE_EPOCH` or now, with the timestamp's lifetime.
    static func clock(timestampExpires: Int) throws -> FeedClock {
        guard timestampExpires > 0 else {
            throw FeedPublisherError("--timestamp-expires", "\(timestampExpires) is not a positive number of seconds")
        }
        var clock = try FeedClock.current()
        clock.timestampLifetime = TimeInterval(timestampExpires)
        return clock
    }

    /// A feed's location as given on the command line: an http(s) URL (fetched with
    /// FeedClient's `HTTPFetcher`) or a directory (read as `file:` URLs).
    static func location(_ text: String) throws -> (url: URL, fetcher: Fetcher) {
        guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
            return (URL(fileURLWithPath: text, isDirectory: true), FileFetcher())
        }
        guard let url = URL(string: text) else { throw FeedPublisherError(text, "not a URL") }
        return (url, HTTPFetcher())
    }

    /// Reads the trusted root `--root` names.
    static func trustedRoot(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FeedPublisherError(path, "cannot read the trusted root")
        }
        return data
    }

    /// Writes a note to standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
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

    /// The help of `--timestamp-expires`.
    static let timestampHelp = ArgumentHelp(
        "How long the new timestamp.json stays valid, in seconds (a day).", valueName: "seconds")
}

/// What every command that signs a feed takes: the feed directory, `--key` and
/// `--timestamp-expires`.
struct FeedSigningOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The feed directory.", valueName: "feed"))
    var feed: String

    @Option(help: FeedCommandSupport.keyHelp)
    var key: String

    @Option(help: FeedCommandSupport.timestampHelp)
    var timestampExpires = 86_400

    /// The feed with its clock, and the keys `--key` and `others` name (in that order).
    func open(withKeys others: [String] = []) throws -> (Feed, [(key: Ed25519SigningKey, source: String)]) {
        let clock = try FeedCommandSupport.clock(timestampExpires: timestampExpires)
        return (Feed(directory: feed, clock: clock), try FeedCommandSupport.keys([key] + others))
    }
}
