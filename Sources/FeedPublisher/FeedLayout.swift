import FeedClient
import FileSystemKit
import TUF
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
    ///
    /// - Throws: ``FeedPublisherError`` naming the target when its path or hash cannot name a
    ///   file under `targets/` (`..`, an empty or overlong name, a NUL, a hash that is not 64
    ///   hexadecimal digits).
    public static func storedName(of targetPath: String, sha256: String) throws -> String {
        do {
            return try storedPath(of: targetPath, sha256: try SHA256Digest(sha256)).string
        } catch let error as CheckedNameError {
            throw FeedPublisherError(targetPath, "cannot name a file of the feed: \(error)")
        }
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

    /// ``storedName(of:sha256:)``, every name checked: the one way a target path from metadata
    /// becomes a path in the feed.
    package static func storedPath(of targetPath: String, sha256: SHA256Digest) throws -> RelativePath {
        var names = try RelativePath(targetPath).components
        names[names.count - 1] = try PathComponent(sha256.hex + "." + names[names.count - 1].name)
        return try RelativePath([try PathComponent("targets")] + names)
    }

    /// ``storedPath(of:sha256:)`` of a target as `document` lists it, whatever its facts, and
    /// its SHA-256.
    ///
    /// - Throws: ``FeedPublisherError`` naming `document` and the field (the path, or its
    ///   `hashes.sha256`) that cannot name a file of the feed, or the target when it lists no SHA-256.
    static func storedPath(of target: TargetFile, document: String) throws -> (path: RelativePath, sha256: SHA256Digest)
    {
        guard let hash = target.hashes.first(where: { $0.algorithm == "sha256" }) else {
            throw FeedPublisherError(target.path, "hashes: no sha256")
        }
        do {
            let digest = try SHA256Digest(hash.hex)
            return (try storedPath(of: target.path, sha256: digest), digest)
        } catch let error as CheckedNameError {
            let field = error.value == hash.hex ? ".hashes.sha256" : ""
            throw FeedPublisherError(document, "signed.targets[\(target.path.debugDescription)]\(field): \(error)")
        }
    }

    /// The path of a checked file of the feed.
    package func path(_ relative: RelativePath) -> String { relative.under(directory) }

    /// The lock `publish`, `rotate`, `timestamp` and `prune` hold while they write.
    var lockPath: String { path(".feed.lock") }
    /// The scratch directory of a command (removed before and after, under the lock).
    var workPath: String { path(".feed-work") }
}
