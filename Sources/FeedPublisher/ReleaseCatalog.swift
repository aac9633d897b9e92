import FeedClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TUF

/// The releases a targets document lists: each target's facts (``ReleaseFacts``), the whole
/// databases among them by content hash.
struct ReleaseCatalog {
    /// Every target with Shipyard facts, by path.
    let entries: [(target: TargetFile, facts: ReleaseFacts)]

    /// Reads the facts of every target (a target without a `shipyard` member is left out).
    ///
    /// - Throws: ``FeedPublisherError`` naming the target whose facts are malformed.
    init(_ targets: Targets) throws {
        var entries: [(TargetFile, ReleaseFacts)] = []
        for target in targets.targets.values.sorted(by: { $0.path < $1.path }) {
            do {
                if let facts = try ReleaseFacts(of: target) { entries.append((target, facts)) }
            } catch let error as ReleaseFactsError {
                throw FeedPublisherError(target.path, "custom.shipyard: \(error.reason)")
            }
        }
        self.entries = entries
    }

    /// The whole-database targets of the releases offered to devices, newest (highest
    /// `user_version`) first.
    var releases: [(target: TargetFile, facts: ReleaseFacts)] { newestFirst { !$0.baseOnly } }

    /// The whole-database targets that are only patch bases (``ReleaseFacts/baseOnly``: releases
    /// an app bundles, never offered), newest first.
    var bases: [(target: TargetFile, facts: ReleaseFacts)] { newestFirst(\.baseOnly) }

    private func newestFirst(_ include: (ReleaseFacts) -> Bool) -> [(target: TargetFile, facts: ReleaseFacts)] {
        entries.filter { $0.facts.kind == .database && include($0.facts) }.sorted {
            ($0.facts.result.userVersion, $0.facts.result.sha256) > (
                $1.facts.result.userVersion, $1.facts.result.sha256
            )
        }
    }

    /// The whole-database target (a release or a base) with content hash `sha256`.
    func release(_ sha256: String) -> (target: TargetFile, facts: ReleaseFacts)? {
        entries.first { $0.facts.kind == .database && $0.facts.result.sha256 == sha256 }
    }
}

/// A target's file in the feed: where it lies (hash-prefixed name) and its SHA-256.
extension TargetFile {
    /// The SHA-256 the target lists (its blob's name prefix), or nil when it lists none.
    var sha256: String? { hashes.first { $0.algorithm == "sha256" }?.hex.lowercased() }

    /// `targets/DIR/HASH.NAME` in the feed.
    var storedName: String? { sha256.map { FeedLayout.storedName(of: path, sha256: $0) } }
}
