import Foundation
@testable import VersionStampKit
import XCTest

/// The verified cache of history answers: a warm run reads the answer back, and anything an
/// answer depends on (HEAD, the query, the matching tags) changes its key.
final class HistoryAnswerCacheTests: XCTestCase {
    private func cached(_ repo: RevisionTestRepository, _ query: RevisionQuery) throws -> RevisionInfo {
        let reader = try RevisionReader(discoveringFrom: repo.root.path, environment: repo.environment, query: query)
        return try reader.revision([.count, .describe])
    }

    private func cacheFile(_ repo: RevisionTestRepository) -> String {
        repo.root.appendingPathComponent(".git/versionstamp/history-answers").path
    }

    func testWarmAnswersEqualGitAndFollowChanges() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "lib/a.txt")
        try repo.git("tag", "-a", "v1.0.0", "-m", "one")
        try repo.commit("b", file: "app/b.txt")
        try repo.commit("c", file: "lib/c.txt")
        let queries = [RevisionQuery(tagPattern: "v*", paths: ["lib"]), RevisionQuery(firstParent: true),
                       RevisionQuery(tagPattern: "release-*", paths: ["app"])]
        for round in 0..<2 {
            for query in queries {
                let info = try cached(repo, query)
                XCTAssertEqual(info.count, try repo.gitCount("HEAD", query), "round \(round) \(query)")
                XCTAssertEqual(info.describe, try repo.gitDescribe(query), "round \(round) \(query)")
            }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile(repo)))
        // A new matching tag, a moved HEAD: new keys, answers still git's.
        try repo.git("tag", "release-1.1-rc1", "HEAD~1")
        try repo.commit("d", file: "lib/d.txt")
        for query in queries {
            let info = try cached(repo, query)
            XCTAssertEqual(info.count, try repo.gitCount("HEAD", query), "\(query)")
            XCTAssertEqual(info.describe, try repo.gitDescribe(query), "\(query)")
        }
    }

    /// HEAD moved since the cached answer: new commits on top, a merge of a branch that forked
    /// below the cached commit, a rewritten history. Each answer is still git's.
    func testCountsAfterHeadMoved() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "lib/a.txt")
        try repo.git("checkout", "-q", "-b", "old-side")
        try repo.commit("side", file: "lib/side.txt")
        try repo.git("checkout", "-q", "main")
        for i in 0..<4 { try repo.commit("m\(i)", file: i % 2 == 0 ? "lib/m\(i).txt" : "app/m\(i).txt") }
        let queries = [RevisionQuery(paths: ["lib"]), RevisionQuery(firstParent: true),
                       RevisionQuery(firstParent: true, paths: ["app"]), RevisionQuery(paths: ["app", "lib"])]
        func check(_ label: String) throws {
            for query in queries {
                XCTAssertEqual(try cached(repo, query).count, try repo.gitCount("HEAD", query), "\(label) \(query)")
            }
        }
        try check("first")
        for i in 0..<3 { try repo.commit("n\(i)", file: "lib/n\(i).txt") }
        try check("ahead")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge old side", "old-side")
        try check("merged a branch older than the cached commit")
        try repo.git("reset", "-q", "--hard", "HEAD~3")
        try repo.commit("rewritten", file: "app/r.txt")
        try check("rewritten")
    }

    /// A warm run really answers from the file, and a line whose checksum fails is ignored.
    func testAnswersComeFromTheVerifiedFile() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "lib/a.txt")
        try repo.git("branch", "old-side")
        try repo.commit("b", file: "lib/b.txt")
        let query = RevisionQuery(paths: ["lib"])
        XCTAssertEqual(try cached(repo, query).count, 2)
        let cache = HistoryAnswerCache(path: cacheFile(repo))
        let head = try repo.git("rev-parse", "HEAD")
        let key = HistoryAnswerCache.key(["count", "all", "lib"]) + "-" + head
        XCTAssertEqual(cache.value(for: key), "2")
        cache.store("41", for: key)
        XCTAssertEqual(try cached(repo, query).count, 41, "the warm answer is read from the cache")
        let text = try String(contentsOfFile: cacheFile(repo), encoding: .utf8)
        try text.replacingOccurrences(of: " 41 ", with: " 42 ").write(toFile: cacheFile(repo), atomically: true, encoding: .utf8)
        XCTAssertEqual(try cached(repo, query).count, 2, "a line failing its checksum is recomputed")
        try "garbage\n".write(toFile: cacheFile(repo), atomically: true, encoding: .utf8)
        XCTAssertEqual(try cached(repo, query).count, 2)
        // Later answers are derived from the cached one (here a false 41 for 2), not walked again:
        // two commits, one under lib, give 42.
        cache.store("41", for: key)
        try repo.commit("c", file: "lib/c.txt")
        try repo.commit("d", file: "app/d.txt")
        XCTAssertEqual(try cached(repo, query).count, 42, "derived from the cached count")
        // A merge of a branch that forked below the cached commits: the side commit and the
        // merge (which differs from both parents under lib) add 2, as git counts.
        try repo.git("checkout", "-q", "old-side")
        try repo.commit("side", file: "lib/side.txt")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge old side", "old-side")
        XCTAssertEqual(try repo.gitCount("HEAD", query), 5)
        XCTAssertEqual(try cached(repo, query).count, 44, "derived across a merge of an older branch")
    }
}
