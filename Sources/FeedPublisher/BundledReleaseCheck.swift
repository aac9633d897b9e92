import FeedClient
import FileSystemKit
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
import TUF

/// What devices bundling a database get from a feed (`dbgen feed verify --bundled FILE`): the
/// newest release offered to them and how they would reach it, by FeedClient's own choice
/// (the code a device runs), for a device in rollout bucket 0 (offered every release that
/// suits it) trusting the feed's root, so offered only releases of its data epoch
/// (FeedClient's `DataEpoch`). A base or release of an earlier epoch is still a patch base: a
/// device that drops an earlier epoch's data has its bundled database in effect again.
public struct BundledReleaseCheck: Equatable, Sendable {
    /// The bundled database: its `user_version` and content hash.
    public var bundled: DatabaseVersion
    /// The newest release offered to such a device, or nil when none is newer than the bundled one.
    public var newest: DatabaseVersion?
    /// The patches of the chain to it (0 when nothing is newer).
    public var patchCount: Int
    /// The bytes the chain downloads.
    public var bytes: Int64
    /// The bytes of the newest release's whole file (what the device would download without a patch).
    public var wholeFileBytes: Int64

    /// Checks the feed's verified `targets` for devices bundling `database`, following `channels`,
    /// reading `dataFormat` and trusting a root of data epoch `dataEpoch`.
    ///
    /// - Throws: ``FeedPublisherError`` naming `database` when such devices would download the
    ///   whole file rather than a patch: the feed does not hold it (as a release or a base), so no
    ///   patch starts from it, or no chain of patches from it to the newest release costs less.
    static func check(
        bundled database: String, targets: Targets, channels: Set<String>, dataFormat: Int64, dataEpoch: Int64
    ) throws -> BundledReleaseCheck {
        let bundled = DatabaseVersion(
            userVersion: try Feed.userVersion(of: database),
            sha256: try FeedPublisherError.about(database) { try DatabaseFile.sha256(of: database) })
        let choice: ReleaseChoice
        do {
            choice = try ReleaseChoice(targets: targets.targets)
        } catch let error as FeedUpdateError {
            throw FeedPublisherError(error.subject, error.reason)
        }
        let devices = "devices bundling it (user_version \(bundled.userVersion), sha256 \(bundled.sha256.prefix(12))…)"
        let stored = choice.candidates.contains {
            $0.facts.kind == .database && $0.facts.result.sha256 == bundled.sha256
        }
        guard stored else {
            throw FeedPublisherError(
                database,
                "\(devices) would download the whole file: the feed does not hold this release, so no patch "
                    + "starts from it. Publish it first (`dbgen publish FEED \(database) --key KEY`), or, when the "
                    + "feed already has newer releases, add it as a patch base that is never offered "
                    + "(`dbgen publish FEED \(database) --key KEY --base-only`)")
        }
        let policy = ClientPolicy(channels: channels, dataFormat: dataFormat, bucket: 0, dataEpoch: dataEpoch)
        guard let newest = choice.newestOffered(to: policy), newest.facts.result.userVersion > bundled.userVersion
        else {
            return BundledReleaseCheck(bundled: bundled, newest: nil, patchCount: 0, bytes: 0, wholeFileBytes: 0)
        }
        let path = choice.cheapestPath(from: [bundled.sha256], to: newest, policy: policy)
        let bytes = path.reduce(Int64(0)) { $0 &+ $1.target.length }
        guard path.first?.facts.kind == .patch else {
            let patchesFrom = choice.candidates.filter { $0.facts.base?.sha256 == bundled.sha256 }.count
            throw FeedPublisherError(
                database,
                "\(devices) would download the whole file of user_version \(newest.facts.result.userVersion) "
                    + "(\(newest.target.length) bytes): "
                    + (patchesFrom == 0
                        ? "the feed has no patch from it (publish makes patches from the newest --patches-from "
                            + "releases and from every base); publish the next release with a --patches-from "
                            + "that reaches it"
                        : "no chain of the \(patchesFrom) patches from it reaches that release for less"))
        }
        return BundledReleaseCheck(
            bundled: bundled, newest: newest.facts.result, patchCount: path.count, bytes: bytes,
            wholeFileBytes: newest.target.length)
    }
}

extension FeedVerifier {
    /// Verifies the feed (``verify()``), then checks it for devices bundling `database` that
    /// follow `channels` and read `dataFormat` (``BundledReleaseCheck``).
    ///
    /// - Throws: ``FeedPublisherError`` naming the document or target that fails, or `database`
    ///   when devices bundling it would download the whole file rather than a patch.
    public func verify(bundled database: String, channels: Set<String> = [], dataFormat: Int64 = 1)
        async throws -> (FeedVerification, BundledReleaseCheck)
    {
        let (verification, targets) = try await verifyTargets()
        let bundled = try BundledReleaseCheck.check(
            bundled: database, targets: targets, channels: channels, dataFormat: dataFormat,
            dataEpoch: verification.dataEpoch)
        return (verification, bundled)
    }
}
