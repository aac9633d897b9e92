import FeedClient
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
import LayeredDatabase

/// What `dbgen publish` is asked besides the database: how many earlier releases get a patch,
/// and the facts every target of the release carries (``ReleaseFacts``).
public struct PublishOptions: Equatable, Sendable {
    /// Patches from each of the newest K releases already in the feed (`--patches-from`, 3).
    public var patchesFrom: Int
    /// The channel (`--channel`; nil: every client).
    public var channel: String?
    /// The fraction of devices offered the release (`--rollout`, in (0, 1]).
    public var rollout: Double
    /// Whether the release skips the rollout (`--critical`).
    public var critical: Bool
    /// The app data formats the release suits (`--data-format MIN[-MAX]`; nil: every app).
    public var dataFormat: ReleaseFacts.DataFormatRange?
    /// How the release's targets are compressed (`--compression`, bzip2: a `dbgen diff` patch is
    /// about a third smaller than zlib's).
    public var compression: TargetCompression
    /// How patches are packed before compression (``PatchPacking/sqlPack`` unless told;
    /// `--no-packing`: nil, plain SQL that `bunzip2` alone turns back into the patch).
    public var packing: PatchPacking?
    /// Whether the database is added as a patch base only (`--base-only`: a release an app
    /// bundles, never offered; ``Feed/addBase(_:key:keySource:options:)``).
    public var baseOnly: Bool

    /// Options.
    public init(
        patchesFrom: Int = 3, channel: String? = nil, rollout: Double = 1, critical: Bool = false,
        dataFormat: ReleaseFacts.DataFormatRange? = nil, compression: TargetCompression = .bzip2,
        packing: PatchPacking? = .sqlPack, baseOnly: Bool = false
    ) {
        self.patchesFrom = patchesFrom
        self.channel = channel
        self.rollout = rollout
        self.critical = critical
        self.dataFormat = dataFormat
        self.compression = compression
        self.packing = packing
        self.baseOnly = baseOnly
    }

    /// Checks each option's range.
    ///
    /// - Throws: ``FeedPublisherError`` naming the option.
    public func validate() throws {
        guard patchesFrom >= 0 else { throw FeedPublisherError("--patches-from", "\(patchesFrom) is below 0") }
        guard rollout > 0, rollout <= 1 else {
            throw FeedPublisherError("--rollout", "\(rollout) is not a fraction above 0, at most 1")
        }
        if let channel, channel.isEmpty { throw FeedPublisherError("--channel", "empty channel name") }
        if baseOnly, channel != nil || rollout != 1 || critical || dataFormat != nil {
            throw FeedPublisherError(
                "--base-only",
                "a base is never offered, so --channel, --rollout, --critical and --data-format do not apply to it "
                    + "(its patches carry the facts of the releases they lead to)")
        }
        if let dataFormat {
            guard dataFormat.minimum >= 0, (dataFormat.maximum ?? .max) >= dataFormat.minimum else {
                throw FeedPublisherError("--data-format", "not a range MIN[-MAX] of formats from 0 up")
            }
        }
    }

    /// Who the release is offered to, in words: its channel, rollout and data formats, as the
    /// facts `publish` writes say (what `dbgen publish` repeats after publishing).
    public var audience: String {
        let channelText = channel.map { "channel \"\($0)\" only" } ?? "every channel"
        let rolloutText =
            critical
            ? "every device at once (critical)" : rollout == 1 ? "every device (rollout 1)" : "rollout \(rollout)"
        let formats = dataFormat.map { "data format \($0)" } ?? "every data format"
        return "\(channelText), \(rolloutText), \(formats)"
    }

    /// Reads `MIN` or `MIN-MAX` (`--data-format`).
    public static func dataFormat(_ text: String) throws -> ReleaseFacts.DataFormatRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let minimum = Int64(parts[0]), minimum >= 0 else {
            throw FeedPublisherError("--data-format", "\"\(text)\" is not MIN or MIN-MAX")
        }
        guard parts.count == 2 else { return ReleaseFacts.DataFormatRange(minimum: minimum) }
        guard let maximum = Int64(parts[1]), maximum >= minimum else {
            throw FeedPublisherError("--data-format", "\"\(text)\": MAX must be a number not below MIN")
        }
        return ReleaseFacts.DataFormatRange(minimum: minimum, maximum: maximum)
    }

    /// Reads a compression's name (`--compression`).
    public static func compression(_ name: String) throws -> TargetCompression {
        guard let compression = TargetCompression(rawValue: name) else {
            let known = TargetCompression.allCases.map(\.rawValue).joined(separator: " or ")
            throw FeedPublisherError("--compression", "\"\(name)\" is not \(known)")
        }
        return compression
    }

    /// The facts of a target of this release.
    func facts(
        kind: ReleaseFacts.Kind, blob: TargetBlob.Encoded, base: DatabaseVersion?, result: DatabaseVersion
    ) -> ReleaseFacts {
        facts(
            kind: kind, encoding: blob.encoding, uncompressedLength: blob.uncompressedLength,
            uncompressedSHA256: blob.uncompressedSHA256, base: base, result: result)
    }

    /// The facts of a target of this release in `encoding` standing for a file of this length and SHA-256.
    func facts(
        kind: ReleaseFacts.Kind, encoding: TargetEncoding, uncompressedLength: Int64, uncompressedSHA256: String,
        base: DatabaseVersion?, result: DatabaseVersion
    ) -> ReleaseFacts {
        ReleaseFacts(
            kind: kind, compression: encoding.compression, packing: encoding.packing,
            uncompressedLength: uncompressedLength, uncompressedSHA256: uncompressedSHA256,
            base: base, result: result, dataFormat: dataFormat, channel: channel, rollout: rollout,
            critical: critical, baseOnly: baseOnly && kind == .database)
    }
}
