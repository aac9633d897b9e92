/// What a client follows and can read: the channels, the app's data format, its rollout
/// bucket, and the data epoch of the root it trusts. A release is offered when it suits the
/// client (its channel, if any, is followed; its data-format range, if any, holds the app's; it
/// was published under the trusted root's data epoch) and its rollout reaches the bucket (or it
/// is critical); a base-only release (a patch base an app bundles) never is.
package struct ClientPolicy: Sendable {
    var channels: Set<String>
    var dataFormat: Int64
    var bucket: Double
    /// The trusted root's ``DataEpoch``: releases of an earlier epoch (what a leaked key
    /// published before a rotation) or a later one (claimed by a targets key, not the root keys)
    /// are never installed.
    var dataEpoch: Int64

    /// A client following `channels`, reading `dataFormat`, in rollout bucket `bucket` (in [0, 1)),
    /// trusting a root of data epoch `dataEpoch`.
    package init(channels: Set<String>, dataFormat: Int64, bucket: Double, dataEpoch: Int64) {
        self.channels = channels
        self.dataFormat = dataFormat
        self.bucket = bucket
        self.dataEpoch = dataEpoch
    }

    /// Whether the app may hold the data: channel, data format and data epoch (what every
    /// release a patch chain passes through must satisfy too, as it is in effect for a moment).
    func suits(_ facts: ReleaseFacts) -> Bool {
        (facts.channel.map { channels.contains($0) } ?? true) && (facts.dataFormat?.contains(dataFormat) ?? true)
            && facts.dataEpoch == dataEpoch
    }

    /// Whether the release is offered to this client.
    func offers(_ facts: ReleaseFacts) -> Bool {
        !facts.baseOnly && suits(facts) && (facts.critical || bucket < facts.rollout)
    }

    /// Why a release is not offered to this client: every gate it fails (empty when offered).
    func reasons(withholding facts: ReleaseFacts) -> [WithholdingReason] {
        var reasons: [WithholdingReason] = []
        if let channel = facts.channel, !channels.contains(channel) {
            reasons.append(.channel(channel, followed: channels))
        }
        if let range = facts.dataFormat, !range.contains(dataFormat) {
            reasons.append(.dataFormat(range, app: dataFormat))
        }
        if !facts.critical, bucket >= facts.rollout {
            reasons.append(.rollout(fraction: facts.rollout, bucket: bucket))
        }
        return reasons
    }
}
