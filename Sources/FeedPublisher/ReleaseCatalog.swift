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
import TUF

/// The releases a targets document lists: each target's facts (``ReleaseFacts``) and the file
/// that holds it in the feed, the whole databases among them by content hash.
struct ReleaseCatalog {
    /// A target with Shipyard facts, and where its blob lies in the feed.
    struct Entry {
        let target: TargetFile
        let facts: ReleaseFacts
        /// `targets/DIR/HASH.NAME`, every name checked (FileSystemKit's `RelativePath`).
        let stored: RelativePath
        /// The blob's SHA-256 (lowercase).
        let sha256: String
    }

    /// Every target with Shipyard facts, by path.
    let entries: [Entry]

    /// Reads the facts of every target (a target without a `shipyard` member is left out) and
    /// where its blob lies: no target path or hash a key holder signs names a file outside the feed.
    ///
    /// - Throws: ``FeedPublisherError`` naming the target whose facts are malformed, or
    ///   `document` and the field whose path or hash cannot name a file of the feed.
    init(_ targets: Targets, document: String) throws {
        var entries: [Entry] = []
        for target in targets.targets.values.sorted(by: { $0.path < $1.path }) {
            let facts: ReleaseFacts
            do {
                guard let read = try ReleaseFacts(of: target) else { continue }
                facts = read
            } catch let error as ReleaseFactsError {
                throw FeedPublisherError(target.path, "custom.shipyard: \(error.reason)")
            }
            let (stored, digest) = try FeedLayout.storedPath(of: target, document: document)
            entries.append(Entry(target: target, facts: facts, stored: stored, sha256: digest.hex))
        }
        self.entries = entries
    }

    /// The whole-database targets of the releases offered to devices, newest first: by data
    /// epoch (FeedClient's `DataEpoch`), then `user_version`, as devices order them.
    var releases: [Entry] { newestFirst { !$0.baseOnly } }

    /// The whole-database targets that are only patch bases (``ReleaseFacts/baseOnly``: releases
    /// an app bundles, never offered), newest first. A base belongs to no epoch in particular: it
    /// is data an app ships, which a device that drops an earlier epoch's data has in effect again.
    var bases: [Entry] { newestFirst(\.baseOnly) }

    private func newestFirst(_ include: (ReleaseFacts) -> Bool) -> [Entry] {
        entries.filter { $0.facts.kind == .database && include($0.facts) }.sorted {
            ($0.facts.dataEpoch, $0.facts.result.userVersion, $0.facts.result.sha256) > (
                $1.facts.dataEpoch, $1.facts.result.userVersion, $1.facts.result.sha256
            )
        }
    }

    /// The whole-database target with content hash `sha256` as publish under data epoch `epoch`
    /// finds it: a release of that epoch, or a base of any epoch (a base is not republished).
    func release(_ sha256: String, epoch: Int64) -> Entry? {
        entries.first {
            $0.facts.kind == .database && $0.facts.result.sha256 == sha256
                && ($0.facts.baseOnly || $0.facts.dataEpoch == epoch)
        }
    }

    /// The whole-database target (a release of any epoch, or a base) with content hash `sha256`.
    func database(_ sha256: String) -> Entry? {
        entries.first { $0.facts.kind == .database && $0.facts.result.sha256 == sha256 }
    }
}
