import Foundation

/// The dates a feed command signs: now (`SOURCE_DATE_EPOCH` when set, so that the same feed and
/// inputs give byte-identical metadata) and how long each role's documents stay valid.
public struct FeedClock: Equatable, Sendable {
    /// The time every `expires` is counted from (whole seconds).
    public var now: Date
    /// Root's validity (365 days).
    public var rootLifetime: TimeInterval = 365 * 86_400
    /// Targets' validity (365 days).
    public var targetsLifetime: TimeInterval = 365 * 86_400
    /// Snapshot's validity (365 days).
    public var snapshotLifetime: TimeInterval = 365 * 86_400
    /// Timestamp's validity (`--timestamp-expires`, 86,400 s: a day).
    public var timestampLifetime: TimeInterval = 86_400

    /// A clock at `now`.
    public init(now: Date) {
        self.now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    }

    /// Now from `SOURCE_DATE_EPOCH` (whole seconds since 1970) when set, else the system's.
    ///
    /// - Throws: ``FeedPublisherError`` for a value that is not a whole number of seconds.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> FeedClock
    {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return FeedClock(now: Date()) }
        guard let seconds = Int64(text), seconds >= 0 else {
            throw FeedPublisherError("SOURCE_DATE_EPOCH", "\"\(text)\" is not a whole number of seconds")
        }
        return FeedClock(now: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    func expiry(_ lifetime: TimeInterval) -> Date { now.addingTimeInterval(lifetime) }
}
