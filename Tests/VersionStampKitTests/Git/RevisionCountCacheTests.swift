import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// The commit-count cache under the git dir: used when valid, ignored when not, and the
/// count always equals `git rev-list --count HEAD`, whatever happened since it was written.
final class RevisionCountCacheTests: XCTestCase {
    private func cacheURL(_ repo: RevisionTestRepository) -> URL {
        repo.root.appendingPathComponent(".git/versionstamp/commit-counts")
    }

    private func count(_ repo: RevisionTestRepository, in directory: URL? = nil, environment: [String: String]? = nil) throws -> String {
        try VersionContext.load(repository: (directory ?? repo.root).path, environment: environment ?? repo.environment)
            .render("{count}")
    }

    private func assertCountMatchesGit(_ repo: RevisionTestRepository, _ message: String,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try count(repo), try repo.git("rev-list", "--count", "HEAD"), message, file: file, line: line)
    }

    /// A cache line in the file's format, with a valid checksum (FNV-1a 64 of "COMMIT COUNT", via python3).
    private func cacheLine(_ commit: String, _ count: Int) throws -> String {
        let script = """
        import sys
        h = 0xcbf29ce484222325
        for b in sys.argv[1].encode():
            h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
        print("%x" % h)
        """
        let result = try Oracle.python3.run(["-c", script, "\(commit) \(count)"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return "\(commit) \(count) " + result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testFirstRunWritesTheCacheAndLaterRunsUseIt() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        try assertCountMatchesGit(repo, "cold")
        let head = try repo.git("rev-parse", "HEAD")
        let text = try String(contentsOf: cacheURL(repo), encoding: .utf8)
        XCTAssertEqual(text, "versionstamp commit-count cache v1\n" + (try cacheLine(head, 3)) + "\n")
        // A valid entry for HEAD is used as is (proof that warm runs do not walk).
        try Data(("versionstamp commit-count cache v1\n" + (try cacheLine(head, 1234)) + "\n").utf8).write(to: cacheURL(repo))
        XCTAssertEqual(try count(repo), "1234")
    }

    func testTamperedOrGarbageCacheIsIgnored() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        let head = try repo.git("rev-parse", "HEAD")
        let good = try cacheLine(head, 3)
        let edited = good.replacingOccurrences(of: " 3 ", with: " 7 ")
        try FileManager.default.createDirectory(at: cacheURL(repo).deletingLastPathComponent(), withIntermediateDirectories: true)
        for content in ["versionstamp commit-count cache v1\n\(edited)\n", "garbage\n\(good)\n",
                        "versionstamp commit-count cache v1\n\(head) 3\n", "\u{0}\u{1}binary"] {
            try Data(content.utf8).write(to: cacheURL(repo))
            try assertCountMatchesGit(repo, content)
            XCTAssertEqual(try String(contentsOf: cacheURL(repo), encoding: .utf8),
                           "versionstamp commit-count cache v1\n\(good)\n", "the file is rewritten")
        }
    }

    func testDeletedCacheIsRebuilt() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...2 { try repo.commit("c\(i)") }
        try assertCountMatchesGit(repo, "cold")
        try FileManager.default.removeItem(at: cacheURL(repo).deletingLastPathComponent())
        try repo.commit("c3")
        try assertCountMatchesGit(repo, "after delete")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheURL(repo).path))
    }

    /// New commits, merges, checkouts of older commits, other branches, rebases and resets:
    /// each count derived from a cached commit equals git's.
    func testDerivedCountsFollowHistoryChanges() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...5 { try repo.commit("main-\(i)") }
        try assertCountMatchesGit(repo, "initial")
        try repo.commit("main-6")
        try repo.commit("main-7")
        try assertCountMatchesGit(repo, "two commits ahead of the cache")
        try repo.git("checkout", "-q", "-b", "side", "HEAD~4")
        try repo.commit("side-1")
        try repo.commit("side-2")
        try assertCountMatchesGit(repo, "a side branch: the cached commit is not an ancestor")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
        try assertCountMatchesGit(repo, "after a merge")
        try repo.git("checkout", "-q", "--detach", "HEAD~3")
        try assertCountMatchesGit(repo, "an older commit")
        try repo.git("checkout", "-q", "side")
        try repo.git("rebase", "-q", "main~2")
        try assertCountMatchesGit(repo, "after a rebase")
        try repo.git("checkout", "-q", "main")
        try repo.git("reset", "-q", "--hard", "HEAD~1")
        try assertCountMatchesGit(repo, "after a reset")
        // An orphan history shares nothing with the cached commits.
        try repo.git("checkout", "-q", "--orphan", "other")
        try repo.commit("orphan-1")
        try assertCountMatchesGit(repo, "an unrelated history")
    }

    func testCachedCommitMissingFromTheRepositoryIsIgnored() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...2 { try repo.commit("c\(i)") }
        let missing = String(repeating: "ab", count: 20)
        try FileManager.default.createDirectory(at: cacheURL(repo).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(("versionstamp commit-count cache v1\n" + (try cacheLine(missing, 500)) + "\n").utf8).write(to: cacheURL(repo))
        try assertCountMatchesGit(repo, "the cached commit does not exist")
    }

    func testLinkedWorktreesShareTheCache() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        let worktree = repo.root.deletingLastPathComponent().appendingPathComponent("linked")
        try repo.git("worktree", "add", "-q", "-b", "wt", worktree.path, "HEAD~1")
        try repo.commit("wt-1", in: worktree)
        XCTAssertEqual(try count(repo, in: worktree), try repo.git("rev-list", "--count", "HEAD", in: worktree))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheURL(repo).path), "under the common git dir")
    }

    func testCacheCanBeSwitchedOff() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("c1")
        var env = repo.environment
        env["VERSIONSTAMP_COUNT_CACHE"] = "0"
        XCTAssertEqual(try count(repo, environment: env), "1")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheURL(repo).path))
    }
}
