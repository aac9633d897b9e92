import Foundation
import ShipyardTestSupport
import VersionStampKit
import XCTest

/// Seeded random histories: every count (with and without first parents, per path) and every
/// description (per tag pattern, with and without first parents) equals git's answer.
final class RandomHistoryOracleTests: XCTestCase {
    static let pathSets: [[String]] = [[], ["app"], ["lib"], ["lib/core"], ["docs", "tools"], ["lib/net/f1.txt"]]
    static let patterns: [String?] = [nil, "v*", "release-*", "docs-*", "v[0-9]*.*.[0-9]", "*-rc?", "nomatch-*"]

    func testRandomHistoriesMatchGit() throws {
        for seed: UInt64 in [1, 2] {
            let repo = try RevisionTestRepository(self)
            try RandomHistory.build(in: repo, seed: seed, commits: 250)
            try assertAllQueries(repo, label: "seed \(seed) at b0", sample: seed == 1 ? 1 : 2)
            // Other HEADs: a detached commit deep in the history, and another branch.
            let commits = try repo.git("rev-list", "--all").split(separator: "\n").map(String.init)
            try repo.git("checkout", "-q", "--detach", commits[commits.count / 3])
            try assertAllQueries(repo, label: "seed \(seed) detached", sample: 4)
            try repo.git("checkout", "-q", "-f", "b2")
            try assertAllQueries(repo, label: "seed \(seed) at b2", sample: 4)
        }
    }

    /// Every path set with each first-parent setting, and every tag pattern; `sample` > 1
    /// takes every sample-th combination only.
    private func assertAllQueries(_ repo: RevisionTestRepository, label: String, sample: Int = 1) throws {
        var index = 0
        let memo = GitAnswerMemo()
        for paths in Self.pathSets {
            for firstParent in [false, true] {
                for pattern in Self.patterns {
                    index += 1
                    guard index % sample == 0 else { continue }
                    let query = RevisionQuery(tagPattern: pattern, firstParent: firstParent, paths: paths)
                    try repo.assertHistoryMatchesGit(query, label, memo: memo)
                }
            }
        }
    }

    /// Counts derived from a cached commit's count (HEAD moved forward, back, sideways, across
    /// merges and skewed dates) equal git's.
    func testCountsDerivedFromCachedCommitsMatchGit() throws {
        let repo = try RevisionTestRepository(self)
        try RandomHistory.build(in: repo, seed: 3, commits: 200)
        let commits = try repo.git("rev-list", "--all").split(separator: "\n").map(String.init)
        var random = SeededGenerator(seed: 3)
        let queries = [
            RevisionQuery(), RevisionQuery(firstParent: true), RevisionQuery(paths: ["lib"]),
            RevisionQuery(firstParent: true, paths: ["docs", "tools"]), RevisionQuery(paths: ["app"]),
        ]
        for round in 0..<8 {
            let from = commits[Int.random(in: 0..<commits.count, using: &random)]
            let to = commits[Int.random(in: 0..<min(commits.count, 40), using: &random)]
            try repo.git("checkout", "-q", "--detach", from)
            for query in queries where try repo.firstPathMissingAtHead(query.paths) == nil {
                _ = try cachedCount(repo, query)
            }
            try repo.git("checkout", "-q", "--detach", to)
            // (A path missing at HEAD is refused; the oracle tests above check that.)
            for query in queries where try repo.firstPathMissingAtHead(query.paths) == nil {
                XCTAssertEqual(
                    try cachedCount(repo, query), try repo.gitCount("HEAD", query), "round \(round) \(query)")
            }
        }
    }

    private func cachedCount(_ repo: RevisionTestRepository, _ query: RevisionQuery) throws -> Int {
        try RevisionReader(discoveringFrom: repo.root.path, environment: repo.environment, query: query).revision(
            .count
        ).count
    }
}
