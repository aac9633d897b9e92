import ArgumentParser
import CommandLineDiagnostics
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

extension DBGenCommand {
    /// `dbgen publish FEED NEW.sqlite --key KEY`.
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Add a release to a feed: the database, patches from earlier releases, signed metadata.",
            discussion: """
                Compresses NEW (bzip2 unless --compression zlib) as the target \
                releases/RESULT.sqlite.bz2, and for each of the newest K releases in the feed \
                makes `dbgen diff`'s patch to NEW, packed (keys as differences, frequent words \
                as codes) and compressed as the target patches/BASE-RESULT.sqlpack.bz2 \
                (.sql.bz2 with --no-packing, .zlib for .bz2 with zlib), kept only when smaller \
                than the whole database; these run side by side on every core. RESULT and BASE \
                are the SHA-256 of the databases' files. A target is stored under its SHA-256 \
                (TUF's consistent snapshots): FEED/targets/releases/SHA256.RESULT.sqlite.bz2, \
                FEED/targets/patches/SHA256.BASE-RESULT.sqlpack.bz2. Each kept patch is installed on a copy of its \
                base by the updater a device runs, and refused unless the result holds NEW's \
                exact content. Then writes the next targets, snapshot and timestamp, signed by \
                KEY. NEW's user_version must be greater than every release's. Publishing a \
                release the feed already holds with the same facts writes nothing (exit 0); \
                with other facts it is an error. Every base added with --base-only gets a patch \
                too, however old. SOURCE_DATE_EPOCH fixes the dates signed, so \
                the same feed and inputs give the same files byte for byte. Writes are atomic \
                and ordered (targets' files, then N.targets.json, N.snapshot.json, and \
                timestamp.json last): a publish killed at any moment leaves a feed that \
                verifies. Two publishes at once run one after the other.

                The release the app bundles: publish it first, so that every later release has a \
                patch from it (`dbgen feed verify FEED --root ROOT --bundled FILE` checks). A \
                feed started after the app shipped takes it with --base-only: stored so that \
                patches start from it (one to each of the newest K releases now, one from every \
                later release), never offered as an update itself.

                With --against URL and --root ROOT, nothing is published onto a feed that \
                devices holding the hosted one would refuse or ignore (a feed made anew, an old \
                copy: see `feed verify --against`); start from `dbgen feed pull`.

                Examples:
                  dbgen publish feed food.sqlite --key env:FEED_KEY --patches-from 5 \\
                    --rollout 0.25
                  dbgen publish feed App/Resources/food.sqlite --key env:FEED_KEY \\
                    --base-only
                  dbgen publish feed food.sqlite --key env:FEED_KEY \\
                    --against https://cdn.example.com/food/ --root App/Resources/root.json
                """)

        @OptionGroup var signing: FeedSigningOptions

        @Argument(help: ArgumentHelp("The release's database, as dbgen built it.", valueName: "new"))
        var database: String

        @Option(help: ArgumentHelp("Make patches from the newest K releases (3).", valueName: "k"))
        var patchesFrom = 3

        @Option(help: ArgumentHelp("Offer the release only to clients following this channel.", valueName: "name"))
        var channel: String?

        @Option(
            help: ArgumentHelp(
                "The fraction of devices offered the release, above 0, at most 1.", valueName: "fraction"))
        var rollout: Double = 1

        @Flag(help: "Offer the release to every device at once, whatever --rollout says.")
        var critical = false

        @Option(
            help: ArgumentHelp(
                "The app data formats the release suits: MIN or MIN-MAX (every app when absent).",
                valueName: "min[-max]"))
        var dataFormat: String?

        @Option(
            help: ArgumentHelp(
                "How targets are compressed: bzip2 (the default: a dbgen patch is about a third smaller than with zlib, "
                    + "so fewer bytes on the wire) or zlib (what feeds before bzip2 carried; every client reads both).",
                valueName: "bzip2|zlib"))
        var compression: String = TargetCompression.bzip2.rawValue

        @Flag(
            help: ArgumentHelp(
                "Add NEW as a patch base only: the release an app bundles, never offered as an update; "
                    + "patches from it to the newest K releases now and to every later one."))
        var baseOnly = false

        @Flag(
            help: ArgumentHelp(
                "Write patches as plain SQL rather than packed (keys as differences, frequent words as codes): "
                    + "readable with bunzip2 alone, but about a third larger on the wire."))
        var noPacking = false

        @Option(
            help: ArgumentHelp(
                "The feed as hosted (http(s) URL or directory): publish nothing onto a feed that devices holding "
                    + "it would refuse or ignore (one made anew); needs --root.", valueName: "url"))
        var against: String?

        @Option(
            help: ArgumentHelp("With --against: the trusted root.json (the one the app bundles).", valueName: "root"))
        var root: String?

        func run() throws {
            try FeedCommandSupport.run {
                let options = PublishOptions(
                    patchesFrom: patchesFrom, channel: channel, rollout: rollout, critical: critical,
                    dataFormat: try dataFormat.map(PublishOptions.dataFormat),
                    compression: try PublishOptions.compression(compression), packing: noPacking ? nil : .sqlPack,
                    baseOnly: baseOnly)
                try options.validate()
                if let against {
                    guard let root else {
                        throw FeedPublisherError("--against", "needs --root (the root the app bundles)")
                    }
                    let location = try FeedCommandSupport.location(against, rootArgument: root)
                    let verifier = FeedVerifier(
                        feedURL: URL(fileURLWithPath: signing.feed, isDirectory: true),
                        root: try FeedCommandSupport.trustedRoot(root), fetcher: FileFetcher())
                    _ = try AsyncWait.result {
                        try await verifier.check(againstHosted: location.url, fetcher: location.fetcher)
                    }.get()
                }
                let (feed, keys) = try signing.open()
                let summary = try feed.publish(database, key: keys[0].key, keySource: keys[0].source, options: options)
                let release = "user_version \(summary.release.userVersion) (\(summary.release.sha256.prefix(12)))"
                let audience =
                    summary.isBaseOnly
                    ? "never offered: a patch base only"
                    : options.baseOnly
                        ? "as a release: patches start from it already" : "offered to: \(options.audience)"
                guard !summary.wasAlreadyPublished else {
                    FeedCommandSupport.note(
                        "\(database): \(release) is already in the feed (\(audience)); nothing written")
                    return
                }
                print(
                    "\(options.baseOnly ? "added base" : "published") \(release): database \(counted(summary.databaseLength, "byte")), "
                        + "targets version \(summary.targetsVersion)")
                print("  \(audience)")
                if let version = summary.renewedRootVersion {
                    print("renewed root: \(signing.feed)/\(version).root.json names the same keys")
                }
                for patch in summary.patches {
                    let pair =
                        options.baseOnly
                        ? "patch to user_version \(patch.result.userVersion)"
                        : "patch from user_version \(patch.base.userVersion)"
                    print(
                        patch.kept
                            ? "  \(pair): \(counted(patch.length, "byte"))"
                            : "  \(pair): left out (\(counted(patch.length, "byte")), not smaller than the database)")
                }
            }
        }
    }
}
