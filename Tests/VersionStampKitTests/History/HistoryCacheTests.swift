import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// The one cache of history answers: a warm run reads the answer back, anything an answer
/// depends on (HEAD, the query, the matching tags) changes its key, a count for a moved HEAD is
/// derived from a cached one, a damaged or stale file is ignored, and the cache lives where it
/// is told to (the common git dir, `--cache-dir`, nowhere). Every count equals git's.
final class HistoryCacheTests: XCTestCase {
    private func cacheFile(_ repo: RevisionTestRepository) -> String {
        repo.root.appendingPathComponent(".git/versionstamp/history").path
    }

    private func cached(
        _ repo: RevisionTestRepository, _ query: RevisionQuery = RevisionQuery(),
        caching: HistoryCaching = .inGitDirectory
    ) throws -> RevisionInfo {
        let reader = try RevisionReader(
            discoveringFrom: repo.root.path, environment: repo.environment, query: query, caching: caching)
        return try reader.revision([.count, .describe])
    }

    private func count(_ repo: RevisionTestRepository, in directory: URL? = nil, environment: [String: String]? = nil)
        throws -> String
    {
        try VersionContext.load(repository: (directory ?? repo.root).path, environment: environment ?? repo.environment)
            .render("{count}")
    }

    private func assertCountMatchesGit(
        _ repo: RevisionTestRepository, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try count(repo), try repo.git("rev-list", "--count", "HEAD"), message, file: file, line: line)
    }

    /// The file's line for the whole-history count of `commit`, its key and checksum computed
    /// by python3 (FNV-1a 64 of the key's parts, then of `KEY VALUE`): the format is checked
    /// against an independent writer.
    private func countLine(_ commit: String, _ count: Int) throws -> String {
        let script = """
            import sys
            def fnv(text):
                h = 0xcbf29ce484222325
                for b in text.encode():
                    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
                return "%x" % h
            key = fnv("count\\0all") + "-" + sys.argv[1]
            print("%s %s %s" % (key, sys.argv[2], fnv("%s %s" % (key, sys.argv[2]))))
            """
        let result = try Oracle.python3.run(["-c", script, commit, String(count)])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func writeCache(_ repo: RevisionTestRepository, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (cacheFile(repo) as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: cacheFile(repo)))
    }

    // MARK: The file

    func testFirstRunWritesTheCacheAndLaterRunsUseIt() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        try assertCountMatchesGit(repo, "cold")
        let head = try repo.git("rev-parse", "HEAD")
        XCTAssertEqual(
            try String(contentsOfFile: cacheFile(repo), encoding: .utf8),
            "versionstamp history cache v2\n" + (try countLine(head, 3)) + "\n")
        // A valid entry for HEAD is used as is (proof that warm runs do not walk).
        try writeCache(repo, "versionstamp history cache v2\n" + (try countLine(head, 1234)) + "\n")
        XCTAssertEqual(try count(repo), "1234")
    }

    func testTamperedOrGarbageCacheIsIgnored() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        let head = try repo.git("rev-parse", "HEAD")
        let good = try countLine(head, 3)
        let edited = good.replacingOccurrences(of: " 3 ", with: " 7 ")
        let key = String(good.prefix { $0 != " " })
        for content in [
            "versionstamp history cache v2\n\(edited)\n", "garbage\n\(good)\n",
            "versionstamp history cache v2\n\(key) 3\n", "versionstamp history-answers v1\n\(good)\n",
            "\u{0}\u{1}binary",
        ] {
            try writeCache(repo, content)
            try assertCountMatchesGit(repo, content)
            XCTAssertEqual(
                try String(contentsOfFile: cacheFile(repo), encoding: .utf8),
                "versionstamp history cache v2\n\(good)\n", "the file is rewritten")
        }
    }

    func testDeletedCacheIsRebuilt() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...2 { try repo.commit("c\(i)") }
        try assertCountMatchesGit(repo, "cold")
        try FileManager.default.removeItem(atPath: (cacheFile(repo) as NSString).deletingLastPathComponent)
        try repo.commit("c3")
        try assertCountMatchesGit(repo, "after delete")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile(repo)))
    }

    func testCachedCommitMissingFromTheRepositoryIsIgnored() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...2 { try repo.commit("c\(i)") }
        try writeCache(
            repo, "versionstamp history cache v2\n" + (try countLine(String(repeating: "ab", count: 20), 500)) + "\n")
        try assertCountMatchesGit(repo, "the cached commit does not exist")
    }

    // MARK: Where it lives

    func testLinkedWorktreesShareTheCache() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        let worktree = repo.root.deletingLastPathComponent().appendingPathComponent("linked")
        try repo.git("worktree", "add", "-q", "-b", "wt", worktree.path, "HEAD~1")
        try repo.commit("wt-1", in: worktree)
        XCTAssertEqual(try count(repo, in: worktree), try repo.git("rev-list", "--count", "HEAD", in: worktree))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile(repo)), "under the common git dir")
    }

    func testCacheCanBeSwitchedOff() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("c1")
        var env = repo.environment
        env["VERSIONSTAMP_COUNT_CACHE"] = "0"
        XCTAssertEqual(try count(repo, environment: env), "1")
        XCTAssertEqual(try cached(repo, caching: .off).count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFile(repo)))
    }

    /// `--cache-dir`: the answers are kept in DIR/history (created), never under the git dir,
    /// and read back from there.
    func testCacheInAGivenDirectory() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "lib/a.txt")
        try repo.git("tag", "v1.0")
        try repo.commit("b", file: "app/b.txt")
        let directory = repo.home.appendingPathComponent("plugin work/cache")
        let caching = HistoryCaching.inDirectory(directory.path)
        let query = RevisionQuery(paths: ["lib"])
        XCTAssertEqual(try cached(repo, caching: caching).count, 2)
        XCTAssertEqual(try cached(repo, query, caching: caching).describe, try repo.gitDescribe(query))
        let file = directory.appendingPathComponent("history").path
        XCTAssertEqual(
            try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count, 5,
            "header, two counts, two descriptions")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFile(repo)), "nothing under the git dir")
        let head = try repo.git("rev-parse", "HEAD")
        HistoryCache(path: file).store("40", for: HistoryCache.key(["count", "all"]) + "-" + head)
        XCTAssertEqual(try cached(repo, caching: caching).count, 40, "read from the given directory")
        XCTAssertEqual(try cached(repo).count, 2, "the git dir's cache is another")
    }

    // MARK: Answers

    func testWarmAnswersEqualGitAndFollowChanges() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "lib/a.txt")
        try repo.git("tag", "-a", "v1.0.0", "-m", "one")
        try repo.commit("b", file: "app/b.txt")
        try repo.commit("c", file: "lib/c.txt")
        let queries = [
            RevisionQuery(tagPattern: "v*", paths: ["lib"]), RevisionQuery(firstParent: true),
            RevisionQuery(tagPattern: "release-*", paths: ["app"]), RevisionQuery(),
        ]
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

    /// New commits, merges, checkouts of older commits, other branches, rebases, resets and an
    /// unrelated history: each count derived from a cached commit equals git's, for the whole
    /// history, first parents and paths alike.
    func testDerivedCountsFollowHistoryChanges() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("root", file: "lib/root.txt")
        for i in 1...5 { try repo.commit("main-\(i)", file: i % 2 == 0 ? "lib/m\(i).txt" : "app/m\(i).txt") }
        let queries = [
            RevisionQuery(), RevisionQuery(paths: ["lib"]), RevisionQuery(firstParent: true),
            RevisionQuery(firstParent: true, paths: ["lib"]),
        ]
        func check(_ label: String) throws {
            for query in queries {
                XCTAssertEqual(try cached(repo, query).count, try repo.gitCount("HEAD", query), "\(label) \(query)")
            }
        }
        try check("initial")
        try repo.commit("main-6", file: "lib/m6.txt")
        try repo.commit("main-7", file: "app/m7.txt")
        try check("two commits ahead of the cache")
        try repo.git("checkout", "-q", "-b", "side", "HEAD~4")
        try repo.commit("side-1", file: "lib/s1.txt")
        try repo.commit("side-2", file: "app/s2.txt")
        try check("a side branch: the cached commit is not an ancestor")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
        try check("after a merge")
        try repo.git("checkout", "-q", "--detach", "HEAD~3")
        try check("an older commit")
        try repo.git("checkout", "-q", "side")
        try repo.git("rebase", "-q", "main~2")
        try check("after a rebase")
        try repo.git("checkout", "-q", "main")
        try repo.git("reset", "-q", "--hard", "HEAD~1")
        try check("after a reset")
        try repo.git("checkout", "-q", "--orphan", "other")
        try repo.commit("orphan-1", file: "lib/o.txt")
        try check("an unrelated history")
    }

    /// Commits with one committer date (fast-import, scripted histories): a commit reached
    /// from HEAD's side first may be reached from the cached commit's side only through a
    /// commit queued after it. The derived count must wait for that mark (or walk in full).
    func testDerivedCountsWithEqualDates() throws {
        let repo = try RevisionTestRepository(self)
        var stream = ""
        func commit(_ mark: Int, _ branch: String, _ file: String, from: Int?, merge: Int? = nil) {
            stream +=
                "commit refs/heads/\(branch)\nmark :\(mark)\ncommitter T <t@example.com> 1700000000 +0000\ndata 1\n\(mark)\n"
            if let from { stream += "from :\(from)\n" }
            if let merge { stream += "merge :\(merge)\n" }
            stream += "M 100644 inline \(file)\ndata 2\n\(mark)\n\n"
        }
        // C ← X ← Y ← B (main), C ← P (side), H = merge of P (first parent) and B.
        commit(1, "main", "lib/c.txt", from: nil)
        commit(2, "main", "lib/x.txt", from: 1)
        commit(3, "main", "app/y.txt", from: 2)
        commit(4, "main", "lib/b.txt", from: 3)
        commit(5, "side", "lib/p.txt", from: 1)
        commit(6, "top", "app/h.txt", from: 5, merge: 4)
        try repo.git("fast-import", "--quiet", stdin: Data(stream.utf8))
        for query in [RevisionQuery(), RevisionQuery(paths: ["lib"]), RevisionQuery(firstParent: true)] {
            try repo.git("checkout", "-q", "-f", "main")
            XCTAssertEqual(try cached(repo, query).count, try repo.gitCount("HEAD", query), "base \(query)")
            try repo.git("checkout", "-q", "-f", "top")
            XCTAssertEqual(try cached(repo, query).count, try repo.gitCount("HEAD", query), "derived \(query)")
        }
    }

    /// A warm run really answers from the file, a line whose checksum fails is ignored, and a
    /// moved HEAD's count is derived from the cached one (here a false one), not walked again.
    func testAnswersComeFromTheVerifiedFile() throws {
        for query in [RevisionQuery(paths: ["lib"]), RevisionQuery()] {
            let repo = try RevisionTestRepository(self)
            try repo.commit("a", file: "lib/a.txt")
            try repo.git("branch", "old-side")
            try repo.commit("b", file: "lib/b.txt")
            XCTAssertEqual(try cached(repo, query).count, 2)
            let cache = HistoryCache(path: cacheFile(repo))
            let head = try repo.git("rev-parse", "HEAD")
            let key = HistoryCache.key(["count", "all"] + query.paths) + "-" + head
            XCTAssertEqual(cache.value(for: key), "2")
            cache.store("41", for: key)
            XCTAssertEqual(try cached(repo, query).count, 41, "the warm answer is read from the cache")
            let text = try String(contentsOfFile: cacheFile(repo), encoding: .utf8)
            try text.replacingOccurrences(of: " 41 ", with: " 42 ").write(
                toFile: cacheFile(repo), atomically: true, encoding: .utf8)
            XCTAssertEqual(try cached(repo, query).count, 2, "a line failing its checksum is recomputed")
            try "garbage\n".write(toFile: cacheFile(repo), atomically: true, encoding: .utf8)
            XCTAssertEqual(try cached(repo, query).count, 2)
            cache.store("41", for: key)
            try repo.commit("c", file: "lib/c.txt")
            try repo.commit("d", file: "app/d.txt")
            let added = query.paths.isEmpty ? 2 : 1
            XCTAssertEqual(try cached(repo, query).count, 41 + added, "derived from the cached count \(query)")
            // A merge of a branch that forked below the cached commits: the side commit and the
            // merge (which differs from both parents under lib) add 2, as git counts.
            try repo.git("checkout", "-q", "old-side")
            try repo.commit("side", file: "lib/side.txt")
            try repo.git("checkout", "-q", "main")
            try repo.git("merge", "-q", "--no-ff", "-m", "merge old side", "old-side")
            XCTAssertEqual(try repo.gitCount("HEAD", query), 2 + added + 2)
            XCTAssertEqual(
                try cached(repo, query).count, 41 + added + 2, "derived across a merge of an older branch \(query)")
        }
    }
}
