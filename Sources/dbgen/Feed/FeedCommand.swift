import ArgumentParser

extension DBGenCommand {
    /// `dbgen feed`: create, check and maintain an over-the-air feed.
    struct FeedCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feed",
            abstract: "Create, verify and maintain a signed feed (a TUF repository of releases and patches).",
            discussion: """
                A feed is a directory of static files any web server or CDN serves as they are: \
                root.json (the app bundles a copy), N.root.json, timestamp.json, N.snapshot.json, \
                N.targets.json, and targets/ under hash-prefixed names. `dbgen publish` adds \
                releases to it. It is state: publish from the hosted feed (`feed pull`), never \
                from a feed made anew.
                """,
            subcommands: [
                FeedInit.self, FeedPull.self, FeedVerify.self, FeedRotate.self, FeedTimestamp.self, FeedPrune.self,
                FeedAddRecoveryKey.self,
            ])
    }
}
