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

/// The Shipyard targets of a verified targets document, and the choice of release and path
/// (`package`: `dbgen feed verify --bundled` asks it what a device bundling a release would do).
package struct ReleaseChoice {
    /// A target, its facts, and its SHA-256 (checked: it names the download's staging files).
    package struct Candidate {
        package let target: TargetFile
        package let facts: ReleaseFacts
        package let digest: SHA256Digest
    }

    package let candidates: [Candidate]

    /// Reads the facts of every target (targets without `custom.shipyard` are not Shipyard's
    /// and are ignored, and so are targets in a compression or packing this client does not
    /// read: a newer publisher's, which the whole file or an older patch stands in for).
    ///
    /// - Throws: ``FeedUpdateError`` (`facts`) naming the first target whose facts are
    ///   unreadable or contradict themselves.
    package init(targets: [String: TargetFile]) throws {
        var candidates: [Candidate] = []
        for (path, target) in targets.sorted(by: { $0.key < $1.key }) {
            let facts: ReleaseFacts?
            do {
                facts = try ReleaseFacts(of: target)
            } catch let error as ReleaseFactsError {
                if error.isUnknownEncoding { continue }
                throw FeedUpdateError(subject: path, check: .facts, reason: "custom.shipyard: \(error.reason)")
            }
            guard let facts else { continue }
            guard let sha256 = target.hashes.first(where: { $0.algorithm == "sha256" }) else {
                throw FeedUpdateError(subject: path, check: .facts, reason: "no sha256 in its hashes")
            }
            let digest: SHA256Digest
            do {
                // Both become names: the digest of the staging files, the path of the URL.
                digest = try SHA256Digest(sha256.hex)
                _ = try RelativePath(path)
            } catch let error as CheckedNameError {
                let field = error.value == path ? "" : ".hashes.sha256"
                throw FeedUpdateError(
                    subject: "targets.json", check: .malformed,
                    reason: "signed.targets[\(path.debugDescription)]\(field): \(error)")
            }
            if facts.kind == .database, facts.uncompressedSHA256 != facts.result.sha256 {
                throw FeedUpdateError(
                    subject: path, check: .facts,
                    reason: "a whole database whose uncompressed_sha256 is not its result's sha256")
            }
            if let base = facts.base, base.userVersion >= facts.result.userVersion {
                throw FeedUpdateError(
                    subject: path, check: .facts,
                    reason: "a patch from user_version \(base.userVersion) to \(facts.result.userVersion)")
            }
            candidates.append(Candidate(target: target, facts: facts, digest: digest))
        }
        self.candidates = candidates
    }

    /// The newest release offered to the client (highest `user_version`; the smallest file
    /// wins a tie, so the choice is the same on every run).
    package func newestOffered(to policy: ClientPolicy) -> Candidate? {
        candidates.filter { $0.facts.kind == .database && policy.offers($0.facts) }
            .max { ($0.facts.result.userVersion, -$0.target.length) < ($1.facts.result.userVersion, -$1.target.length) }
    }

    /// The releases of the client's data epoch newer than `userVersion` that are not offered to
    /// the client, newest first, each with why. A release of an earlier epoch is older whatever
    /// its `user_version` (devices order by epoch first), and one of a later epoch is not the
    /// root keys' (only a root raises the epoch): neither is withheld, both are ignored.
    func withheld(newerThan userVersion: Int64, policy: ClientPolicy) -> [WithheldRelease] {
        candidates.filter {
            $0.facts.kind == .database && !$0.facts.baseOnly && $0.facts.dataEpoch == policy.dataEpoch
                && $0.facts.result.userVersion > userVersion
        }
        .sorted {
            ($0.facts.result.userVersion, $0.facts.result.sha256) > (
                $1.facts.result.userVersion, $1.facts.result.sha256
            )
        }
        .compactMap { candidate in
            let reasons = policy.reasons(withholding: candidate.facts)
            return reasons.isEmpty ? nil : WithheldRelease(release: candidate.facts.result, reasons: reasons)
        }
    }

    /// The cheapest way (by compressed bytes) from content named by `identities` to `release`:
    /// a chain of patches whose every release suits the client, when it costs less than the
    /// whole file; else the whole file.
    package func cheapestPath(from identities: Set<String>, to release: Candidate, policy: ClientPolicy)
        -> [Candidate]
    {
        let patches = candidates.filter {
            $0.facts.kind == .patch && policy.suits($0.facts)
                && $0.facts.result.userVersion <= release.facts.result.userVersion
        }
        // Dijkstra over content hashes: few nodes (releases), so a linear scan for the minimum.
        var cost: [String: Int64] = [:]
        var via: [String: Candidate] = [:]
        for identity in identities { cost[identity] = 0 }
        var done: Set<String> = []
        while let (node, distance) = cost.filter({ !done.contains($0.key) }).min(by: { $0.value < $1.value }) {
            done.insert(node)
            if node == release.facts.result.sha256 { break }
            for patch in patches where patch.facts.base?.sha256 == node {
                let next = patch.facts.result.sha256
                let total = distance.addingReportingOverflow(patch.target.length)
                guard !total.overflow, !done.contains(next), total.partialValue < cost[next] ?? .max else { continue }
                cost[next] = total.partialValue
                via[next] = patch
            }
        }
        let target = release.facts.result.sha256
        guard let chainCost = cost[target], chainCost < release.target.length, via[target] != nil else {
            return [release]
        }
        var chain: [Candidate] = []
        var node = target
        while !identities.contains(node), let patch = via[node], let base = patch.facts.base {
            chain.append(patch)
            node = base.sha256
        }
        return chain.reversed()
    }
}
