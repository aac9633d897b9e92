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
import EssentialsSupport

/// The dates a feed command signs: now (`SOURCE_DATE_EPOCH` when set, so that the same feed and
/// inputs give byte-identical metadata), how long each role's documents stay valid, and how
/// long before its expiry a document is signed again (``renewalMargin``).
///
/// Every lifetime is bounded: more than 0 seconds, at most ten years (``longestLifetime``), so
/// that every `expires` signed is a date TUF clients read (`YYYY-MM-DDTHH:MM:SSZ`). A clock out
/// of bounds is refused (``validate()``) before a command writes anything.
public struct FeedClock: Equatable, Sendable {
    /// The time every `expires` is counted from (whole seconds).
    public var now: Date
    /// Root's validity (`--root-expires`, 365 days).
    public var rootLifetime: TimeInterval = 365 * 86_400
    /// Targets' validity (`--targets-expires`, 365 days).
    public var targetsLifetime: TimeInterval = 365 * 86_400
    /// Snapshot's validity (`--snapshot-expires`, 365 days).
    public var snapshotLifetime: TimeInterval = 365 * 86_400
    /// Timestamp's validity (`--timestamp-expires`, 86,400 s: a day).
    public var timestampLifetime: TimeInterval = 86_400
    /// How long before its expiry root, targets or snapshot is signed again by `feed timestamp`,
    /// `publish` and `prune`: 60 days, or half the role's lifetime when that is shorter (so a
    /// root is not renewed at every run of a cron).
    public var renewalMargin: TimeInterval = 60 * 86_400

    /// The longest lifetime a document may be given: ten years (3,650 days).
    public static let longestLifetime: TimeInterval = 3_650 * 86_400

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

    /// Checks every lifetime (more than 0, at most ten years) and that every expiry falls before
    /// the year 10000.
    ///
    /// - Throws: ``FeedPublisherError`` naming the option (`--root-expires`, ...) or
    ///   `SOURCE_DATE_EPOCH`.
    public func validate() throws {
        let lifetimes = [
            ("--root-expires", rootLifetime), ("--targets-expires", targetsLifetime),
            ("--snapshot-expires", snapshotLifetime), ("--timestamp-expires", timestampLifetime),
        ]
        for (option, lifetime) in lifetimes { try FeedDuration.check(lifetime, option: option) }
        // Expiry.format writes four digits of year; 10000-01-01T00:00:00Z is 253402300800.
        let latest = lifetimes.map(\.1).max() ?? 0
        guard now.timeIntervalSince1970 + latest < 253_402_300_800 else {
            throw FeedPublisherError(
                "SOURCE_DATE_EPOCH",
                "\(Int64(now.timeIntervalSince1970)) puts expiry dates after the year 9999, which no TUF client reads")
        }
        guard renewalMargin >= 0, renewalMargin <= Self.longestLifetime else {
            throw FeedPublisherError("renewal margin", "\(renewalMargin) seconds is not between 0 and ten years")
        }
    }

    func expiry(_ lifetime: TimeInterval) -> Date { now.addingTimeInterval(lifetime) }

    /// Whether a document that expires at `expires` is to be signed again now, given the lifetime
    /// a new one would get: when less than the margin (at most half that lifetime) is left.
    func isDue(_ expires: Date, lifetime: TimeInterval) -> Bool {
        expires.timeIntervalSince(now) < min(renewalMargin, lifetime / 2)
    }
}
