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

/// One target of a plan: where it is served, its signed length and SHA-256, and its facts.
public struct UpdateStep: Equatable, Sendable {
    /// The target path in the feed's metadata (`releases/RESULT.sqlite.zlib`,
    /// `patches/BASE-RESULT.sql.zlib`).
    public let path: String
    /// The file's URL (its hash-prefixed name: consistent snapshots).
    public let url: URL
    /// Its length in bytes, as the signed metadata says.
    public let length: Int64
    /// Its SHA-256 (lowercase hex), as the signed metadata says.
    public let sha256: String
    /// What it carries.
    public let facts: ReleaseFacts

    /// What the downloader fetches.
    var download: DownloadTarget { DownloadTarget(url: url, length: length, sha256: sha256) }
}
