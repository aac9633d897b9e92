#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import LayeredDatabase

/// A release newer than what a check chose that this client is not offered, and every reason
/// why: what an app shows (or logs) when ``UpdatePlan/isNothingNew`` although the feed has
/// newer data.
///
/// ```swift
/// let plan = try await updater.check()
/// for release in plan.withheld {
///     log("user_version \(release.release.userVersion) not offered: \(release.reasons.map(\.description))")
/// }
/// ```
public struct WithheldRelease: Equatable, Sendable {
    /// The release (`user_version` and content hash).
    public let release: DatabaseVersion
    /// Why it is not offered: one entry per gate it fails (never empty).
    public let reasons: [WithholdingReason]

    /// A withheld release.
    public init(release: DatabaseVersion, reasons: [WithholdingReason]) {
        self.release = release
        self.reasons = reasons
    }
}

/// One gate of `dbgen publish` that keeps a release from this client.
public enum WithholdingReason: Equatable, Sendable, CustomStringConvertible {
    /// The release is for a channel the app does not follow (`--channel` of `publish`;
    /// `channels:` of the updater, the ones followed).
    case channel(String, followed: Set<String>)
    /// The release suits data formats that leave out the app's (`--data-format` of `publish`;
    /// `dataFormat:` of the updater).
    case dataFormat(ReleaseFacts.DataFormatRange, app: Int64)
    /// The release reaches a fraction of devices (`--rollout`) and this device's bucket, a random
    /// number drawn once and kept in the updates directory, is not below it.
    case rollout(fraction: Double, bucket: Double)

    /// The reason in words, naming the channel, the data formats or the rollout.
    public var description: String {
        switch self {
        case .channel(let channel, let followed):
            let list = followed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return "channel \"\(channel)\", which this app does not follow (it follows "
                + (followed.isEmpty ? "no channel" : list) + ")"
        case .dataFormat(let range, let app):
            return "data format \(range), and this app reads data format \(app)"
        case .rollout(let fraction, let bucket):
            return "rollout \(fraction) (the fraction of devices offered it), and this device's bucket is \(bucket), "
                + "not below it"
        }
    }
}
