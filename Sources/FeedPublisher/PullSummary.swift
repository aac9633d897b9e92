/// What `dbgen feed pull` brought down.
public struct PullSummary: Equatable, Sendable {
    /// The pulled feed as `feed verify` checked it.
    public var verification: FeedVerification
    /// The documents whose expiry has passed (`timestamp.json expired at …`), pulled because
    /// `allowExpired` said so: devices refuse the hosted feed until a publish or `dbgen feed
    /// timestamp` renews them.
    public var expired: [String]
    /// The files written: metadata documents and targets.
    public var fileCount: Int
}
