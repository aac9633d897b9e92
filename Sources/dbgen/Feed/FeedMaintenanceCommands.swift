import ArgumentParser
import FeedPublisher

extension DBGenCommand.FeedCommand {
    /// `dbgen feed rotate FEED --key OLD --new-key NEW [--recovery-key PUBLIC_KEY ...]`.
    struct FeedRotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Replace the feed's key: the next root names NEW_KEY, signed by OLD_KEY and NEW_KEY.",
            discussion: """
                TUF's root rotation: the next N.root.json names NEW_KEY for every role and is \
                signed by the old key (which the current root must name) and the new one, so \
                clients that trust the old root accept it; no app release is needed. Targets, \
                snapshot and timestamp are signed again at new versions (by both keys, written \
                before the root, so a rotation killed at any moment leaves a feed that \
                verifies). A key the current root does not name is refused.

                A lost or leaked key: pass a recovery key (see `feed init --recovery-key`) as \
                --key. The new root is then written first; targets, snapshot and timestamp \
                follow, signed by NEW_KEY alone (if killed in between, run the same command \
                again). The new root names the current recovery keys again, and each \
                --recovery-key given here.

                After a leak, --reset-data also raises the feed's data epoch: devices that \
                follow the new root remove what they installed before it (what the leaked key \
                published, even at user_version 2147483647; the bundled database is in effect \
                again) and install the newest release you publish next, whatever its \
                user_version. Only a root signed by the current root keys raises the epoch, so \
                the leaked key, once rotated out, cannot.

                Examples:
                  dbgen feed rotate feed --key old.key --new-key env:NEW_FEED_KEY
                  dbgen feed rotate feed --key recovery.key --new-key new.key --reset-data
                  dbgen publish feed food-v5.sqlite --key new.key
                """)

        @OptionGroup var signing: FeedSigningOptions

        @Option(help: ArgumentHelp("The new private key (a key file, - or env:NAME).", valueName: "new-key"))
        var newKey: String

        @Option(help: FeedCommandSupport.recoveryKeyHelp)
        var recoveryKey: [String] = []

        @Flag(
            help: "Raise the data epoch: devices drop the data installed before (a leaked key's) for the next release.")
        var resetData = false

        func run() throws {
            try FeedCommandSupport.run {
                let recovery = try FeedCommandSupport.recoveryKeys(recoveryKey)
                let (feed, keys) = try signing.open(withKeys: [newKey])
                let version = try feed.rotate(
                    oldKey: keys[0].key, oldKeySource: keys[0].source, newKey: keys[1].key,
                    newKeySource: keys[1].source, recoveryKeys: recovery, resetData: resetData)
                let reset = resetData ? "; data epoch raised: devices drop older data for the next release" : ""
                print(
                    "wrote \(signing.feed)/\(version).root.json: the feed is signed by \(keys[1].key.publicHex)\(reset)"
                )
            }
        }
    }

    /// `dbgen feed timestamp FEED --key KEY`.
    struct FeedTimestamp: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "timestamp",
            abstract: "Sign the next timestamp.json, and renew every role near its expiry (a cron's job).",
            discussion: """
                Devices refuse an expired document (a frozen mirror cannot hold them back \
                longer than its life), so a feed with no new release still needs fresh ones. \
                Run this from cron (daily, say) before the timestamp expires (--timestamp-expires, \
                a day): it signs the next timestamp.json and renews root, targets and snapshot \
                when one expires within 60 days (or half its lifetime when shorter): root as a \
                new N.root.json naming the same keys, signed by KEY, which devices follow; \
                targets and snapshot as new versions of the same content. Lifetimes: \
                --root-expires, --targets-expires, --snapshot-expires (365d each), at most ten \
                years. A document whose expiry no client reads (a year past 9999, from a \
                duration of more than ten years) is signed again too.

                Example:
                  dbgen feed timestamp feed --key env:FEED_KEY --timestamp-expires 48h
                """)

        @OptionGroup var signing: FeedSigningOptions

        func run() throws {
            try FeedCommandSupport.run {
                let (feed, keys) = try signing.open()
                let summary = try feed.resignTimestamp(key: keys[0].key, keySource: keys[0].source)
                for (document, expires) in summary.repaired.sorted(by: { $0.key < $1.key }) {
                    FeedCommandSupport.note(
                        "\(signing.feed)/\(document): its expires \"\(expires)\" is a date no client reads: signed again"
                    )
                }
                let renewed = [
                    summary.rootVersion.map { "root \($0)" }, summary.targetsVersion.map { "targets \($0)" },
                    summary.snapshotVersion.map { "snapshot \($0)" },
                ].compactMap { $0 }
                print(
                    "wrote \(signing.feed)/timestamp.json version \(summary.timestampVersion)"
                        + (renewed.isEmpty ? "" : "; renewed " + renewed.joined(separator: ", ")))
            }
        }
    }

    /// `dbgen feed prune FEED --key KEY --keep N`.
    struct FeedPrune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Keep the newest N releases; drop the others' targets, then delete their files.",
            discussion: """
                The next targets, snapshot and timestamp no longer list the older releases \
                (their databases and the patches to and from them); their files are deleted \
                only after timestamp.json makes that metadata live. A file the live metadata \
                names is never deleted. Devices on a dropped release then get the whole database. \
                Newest means by data epoch, then user_version: after `feed rotate --reset-data` \
                the earlier epoch's releases go first, whatever their user_version. Bases added \
                with `publish --base-only` stay (apps bundle them), whatever their epoch, with \
                their patches to the releases kept.

                Example:
                  dbgen feed prune feed --key env:FEED_KEY --keep 10
                """)

        @OptionGroup var signing: FeedSigningOptions

        @Option(help: ArgumentHelp("How many of the newest releases stay (at least 1).", valueName: "n"))
        var keep: Int

        func run() throws {
            try FeedCommandSupport.run {
                let (feed, keys) = try signing.open()
                let summary = try feed.prune(key: keys[0].key, keySource: keys[0].source, keep: keep)
                guard !summary.removedTargets.isEmpty else {
                    FeedCommandSupport.note("\(signing.feed): nothing to prune (\(summary.kept.count) releases)")
                    return
                }
                print(
                    "kept \(summary.kept.count) releases; dropped \(summary.removedTargets.count) targets, "
                        + "deleted \(summary.deletedFiles.count) files")
                if let version = summary.renewedRootVersion {
                    print("renewed root: \(signing.feed)/\(version).root.json names the same keys")
                }
            }
        }
    }
}
