import FeedClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EssentialsSupport

/// Where a feed keeps what: metadata at the top (`root.json`, `N.root.json`, `timestamp.json`,
/// `N.snapshot.json`, `N.targets.json`), targets under `targets/` by their hash-prefixed names
/// (TUF's consistent snapshots: `releases/BLOB-SHA256.RESULT.sqlite.EXT`,
/// `patches/BLOB-SHA256.BASE-RESULT.sql.EXT`, or `.sqlpack.EXT` packed (``PatchPacking``), EXT
/// the compression's: `bz2` or `zlib`).
public struct FeedLayout: Sendable {
    /// The feed directory.
    public let directory: String

    /// The layout of the feed at `directory`.
    public init(directory: String) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }

    /// The path of a document or file under the feed.
    public func path(_ name: String) -> String { directory + "/" + name }

    /// The target path of a release's whole database compressed with `compression`.
    public static func releasePath(result: String, compression: TargetCompression) -> String {
        "releases/\(result).sqlite.\(compression.fileExtension)"
    }

    /// The target path of a patch in `encoding`.
    public static func patchPath(base: String, result: String, encoding: TargetEncoding) -> String {
        "patches/\(base)-\(result).\(encoding.patchExtension)"
    }

    /// `targets/DIR/HASH.NAME`: where a target with this path and blob SHA-256 lies.
    public static func storedName(of targetPath: String, sha256: String) -> String {
        if let slash = targetPath.lastIndex(of: "/") {
            return "targets/" + targetPath[...slash] + sha256 + "." + targetPath[targetPath.index(after: slash)...]
        }
        return "targets/\(sha256).\(targetPath)"
    }

    /// Checks that `directory` holds a feed: a directory with a `root.json`.
    ///
    /// - Throws: ``FeedPublisherError`` saying "no feed at DIRECTORY" and why (no such
    ///   directory, a file, no `root.json`).
    public func requireFeed() throws {
        guard let isDirectory = FileManager.default.isDirectory(atPath: directory) else {
            throw FeedPublisherError(
                directory,
                "no feed at \(directory): no such directory (`dbgen feed init \(directory) --key KEY` creates one)")
        }
        guard isDirectory else {
            throw FeedPublisherError(
                directory, "no feed at \(directory): it is a file, not a feed directory")
        }
        guard FileManager.default.fileExists(atPath: path("root.json")) else {
            throw FeedPublisherError(
                directory,
                "no feed at \(directory): the directory holds no root.json (`dbgen feed init` creates a feed)")
        }
    }

    /// Whether `directory` holds a feed (``requireFeed()`` would not throw).
    public var isFeed: Bool { (try? requireFeed()) != nil }

    /// The lock `publish`, `rotate`, `timestamp` and `prune` hold while they write.
    var lockPath: String { path(".feed.lock") }
    /// The scratch directory of a command (removed before and after, under the lock).
    var workPath: String { path(".feed-work") }
}
