import FeedClient
import Foundation
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
    /// about a third smaller than deflated).
    public var compression: TargetCompression
    /// How patches are packed before compression (``PatchPacking/sqlPack`` unless told;
    /// `--no-packing`: nil, plain SQL that `bunzip2` alone turns back into the patch).
    public var packing: PatchPacking?

    /// Options.
    public init(
        patchesFrom: Int = 3, channel: String? = nil, rollout: Double = 1, critical: Bool = false,
        dataFormat: ReleaseFacts.DataFormatRange? = nil, compression: TargetCompression = .bzip2,
        packing: PatchPacking? = .sqlPack
    ) {
        self.patchesFrom = patchesFrom
        self.channel = channel
        self.rollout = rollout
        self.critical = critical
        self.dataFormat = dataFormat
        self.compression = compression
        self.packing = packing
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
        if let dataFormat {
            guard dataFormat.minimum >= 0, (dataFormat.maximum ?? .max) >= dataFormat.minimum else {
                throw FeedPublisherError("--data-format", "not a range MIN[-MAX] of formats from 0 up")
            }
        }
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
        kind: ReleaseFacts.Kind, blob: TargetBlob.Deflated, base: DatabaseVersion?, result: DatabaseVersion
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
            critical: critical)
    }
}

/// What `publish` did.
public struct PublishSummary: Equatable, Sendable {
    /// One earlier release a patch was made from.
    public struct Patch: Equatable, Sendable {
        /// The earlier release.
        public var base: DatabaseVersion
        /// The deflated patch's length.
        public var length: Int64
        /// False when it was left out: not smaller than the whole database.
        public var kept: Bool
    }

    /// The release published.
    public var release: DatabaseVersion
    /// True when the feed already held this release with the same facts: nothing was written.
    public var wasAlreadyPublished: Bool
    /// The deflated whole database's length.
    public var databaseLength: Int64
    /// The patches, newest base first.
    public var patches: [Patch]
    /// The new targets version (the old one when nothing was written).
    public var targetsVersion: Int64
    /// The new root version when root, about to expire, was renewed (same keys).
    public var renewedRootVersion: Int64? = nil
}
