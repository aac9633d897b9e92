import ArgumentParser
import FeedPublisher

extension DBGenCommand.FeedCommand {
    /// `dbgen feed add-recovery-key FEED --key KEY PUBLIC_KEY...`.
    struct FeedAddRecoveryKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-recovery-key",
            abstract: "Name a recovery key in the next root of an existing feed, signed by KEY (the main key).",
            discussion: """
                A recovery key is a key kept offline that root names for the root role only: \
                it signs no release, and when KEY is lost or leaked, `dbgen feed rotate FEED \
                --key RECOVERY_KEY --new-key NEW_KEY` moves the feed to a new key without an \
                app release. This writes the next N.root.json and root.json naming each \
                PUBLIC_KEY too (the 64 hexadecimal digits `dbgen keys generate` printed; the \
                private key is never given), signed by KEY; devices follow it from the root \
                they bundle. A key root names already is skipped (nothing written when all are).

                Example:
                  recovery=$(dbgen keys generate --out recovery.key)  # keep it offline
                  dbgen feed add-recovery-key feed --key env:FEED_KEY "$recovery"
                """)

        @OptionGroup var signing: FeedSigningOptions

        @Argument(help: FeedCommandSupport.recoveryKeyHelp)
        var publicKeys: [String]

        func run() throws {
            try FeedCommandSupport.run {
                guard !publicKeys.isEmpty else {
                    throw FeedPublisherError(
                        "add-recovery-key", "no PUBLIC_KEY: give the public key `dbgen keys generate` printed")
                }
                let recovery = try publicKeys.map { try RecoveryKey.publicKey(fromHex: $0, source: "public-key") }
                let (feed, keys) = try signing.open()
                let shown = recovery.map(\.publicValue).joined(separator: ", ")
                guard let version = try feed.addRecoveryKeys(recovery, key: keys[0].key, keySource: keys[0].source)
                else {
                    FeedCommandSupport.note("\(signing.feed): root.json names \(shown) already; nothing written")
                    return
                }
                print(
                    "wrote \(signing.feed)/\(version).root.json: recovery key \(shown) (keep its private key offline, "
                        + "backed up apart from the main key)")
            }
        }
    }
}
