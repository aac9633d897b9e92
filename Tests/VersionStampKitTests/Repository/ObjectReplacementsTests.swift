import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// Replace refs and grafts change git's answers; versionstamp's equal them (every token, the
/// history queries, `{version}`), with and without `GIT_NO_REPLACE_OBJECTS`, and a cached
/// answer from before a replacement is never served after it.
final class ObjectReplacementsTests: XCTestCase {
    /// main: c1 ← c2 (v1.0.0, annotated) ← c3 ← merge of side (s1, s2; s1 tagged v1.1.0) ← c4
    /// ← c5, with files under `lib/` now and then; `other` is a separate line of two commits.
    private func history() throws -> RevisionTestRepository {
        let repo = try RevisionTestRepository(self)
        try repo.commit("c1", file: "lib/a.txt")
        try repo.commit("c2")
        try repo.git("tag", "-a", "v1.0.0", "-m", "release 1.0.0")
        try repo.commit("c3", file: "lib/b.txt")
        try repo.git("checkout", "-q", "-b", "side", "HEAD~1")
        try repo.commit("s1", file: "lib/s.txt")
        try repo.git("tag", "v1.1.0")
        try repo.commit("s2")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
        try repo.commit("c4", file: "lib/c.txt")
        try repo.commit("c5")
        try repo.git("checkout", "-q", "--orphan", "other")
        try repo.commit("o1")
        try repo.commit("o2", file: "lib/o.txt")
        try repo.git("tag", "-a", "v3.0.0", "-m", "other line")
        try repo.git("checkout", "-q", "-f", "main")
        return repo
    }

    private let queries = [
        RevisionQuery(), RevisionQuery(firstParent: true), RevisionQuery(paths: ["lib"]),
        RevisionQuery(tagPattern: "v1.0*"), RevisionQuery(firstParent: true, paths: ["lib"]),
    ]

    /// Every token, every query and `{version}` against git, with replacements in force and with
    /// `GIT_NO_REPLACE_OBJECTS` set.
    private func assertMatchesGit(
        _ repo: RevisionTestRepository, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for disabled in [false, true] {
            repo.variables["GIT_NO_REPLACE_OBJECTS"] = disabled ? "1" : nil
            let context = "\(label)\(disabled ? " GIT_NO_REPLACE_OBJECTS" : "")"
            try repo.assertTokensMatchGit(file: file, line: line)
            for query in queries { try repo.assertHistoryMatchesGit(query, context, file: file, line: line) }
            // Every tag here is vX.Y.Z: {version} is git's nearest tag without its `v`, or an error without one.
            let tag = try repo.runGit(["describe", "--tags", "--abbrev=0"], allowFailure: true)
            let loaded = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
            if tag.status == 0 {
                XCTAssertEqual(
                    try loaded.render("{version}"), String(tag.output.dropFirst()), "{version} \(context)", file: file,
                    line: line)
            } else {
                XCTAssertThrowsError(try loaded.render("{version}"), "{version} \(context)", file: file, line: line)
            }
        }
        repo.variables["GIT_NO_REPLACE_OBJECTS"] = nil
    }

    func testReplaceGraftCutsTheHistory() throws {
        let repo = try history()
        let before = try repo.git("rev-list", "--count", "HEAD")
        try repo.git("replace", "--graft", "HEAD~1") // c4 becomes a root
        XCTAssertNotEqual(try repo.git("rev-list", "--count", "HEAD"), before, "git follows the replacement")
        try assertMatchesGit(repo, "replace --graft HEAD~1")
    }

    func testReplaceGraftAddsAParent() throws {
        let repo = try history()
        try repo.git("replace", "--graft", "HEAD~2", "HEAD~3", "other") // the merge gains the other line
        try assertMatchesGit(repo, "replace --graft with another line")
    }

    /// `git replace HEAD OTHER`: HEAD keeps its id but reads as OTHER (parents, tree, date), so
    /// `{timestamp}`, the count, the tag and `{dirty}` (the work tree no longer matches) change.
    func testReplacedHeadReadsAsItsReplacement() throws {
        let repo = try history()
        try repo.git("replace", "HEAD", "other")
        let answers = try repo.gitAnswers()
        XCTAssertEqual(answers[.sha], try repo.git("rev-parse", "main"))
        XCTAssertEqual(answers[.dirty], "M", "git compares the work tree with the replacement's tree")
        try assertMatchesGit(repo, "replace HEAD other")
    }

    /// A replaced annotated tag and a chain of replacements (X → Y → Z).
    func testReplacedTagAndChain() throws {
        let repo = try history()
        let renamed = try repo.git(
            "mktag",
            stdin: Data(
                """
                object \(try repo.git("rev-parse", "HEAD~3"))
                type commit
                tag v1.5.0
                tagger Test Author <test@example.com> 1700000000 +0000

                moved

                """.utf8))
        try repo.git("replace", "-f", try repo.git("rev-parse", "v1.0.0"), renamed)
        try repo.git("replace", "--graft", "HEAD~1", "HEAD~4")
        let middle = try repo.git("rev-parse", "refs/replace/" + (try repo.git("rev-parse", "HEAD~1")))
        try repo.git("replace", "--graft", middle, "other") // HEAD~1 → middle → a commit on `other`
        try assertMatchesGit(repo, "replaced tag and chain")
    }

    func testGraftsFile() throws {
        let repo = try history()
        let merge = try repo.git("rev-parse", "HEAD~2")
        let c3 = try repo.git("rev-parse", "HEAD~3")
        let o2 = try repo.git("rev-parse", "other")
        try repo.write(
            ".git/info/grafts",
            """
            # a comment, then a malformed line git skips
            not-an-id
            \(merge) \(c3) \(o2)
            \(try repo.git("rev-parse", "side")) \u{20}
            \(merge) \(c3)

            """)
        try assertMatchesGit(repo, "info/grafts")
    }

    /// The history cache keys name the replacements: a count and a description cached before
    /// `git replace` are not served after it, nor those cached with it after it is deleted.
    func testCachedAnswersFollowReplacements() throws {
        let repo = try history()
        let cacheDirectory = repo.root.deletingLastPathComponent().appendingPathComponent("cache").path
        func answer() throws -> String {
            let reader = try RevisionReader(
                discoveringFrom: repo.root.path, environment: repo.environment,
                caching: .inDirectory(cacheDirectory))
            let info = try reader.revision([.count, .describe])
            return "\(info.count) \(info.describe)"
        }
        func git() throws -> String {
            "\(try repo.git("rev-list", "--count", "HEAD")) \(try repo.git("describe", "--tags", "--long", "--always", "--dirty"))"
        }
        let parent = try repo.git("rev-parse", "HEAD~1"), merge = try repo.git("rev-parse", "HEAD~2")
        XCTAssertEqual(try answer(), try git())
        try repo.git("replace", "--graft", parent)
        XCTAssertEqual(try answer(), try git(), "after git replace")
        try repo.git("replace", "-d", parent)
        try repo.write(".git/info/grafts", "\(merge)\n")
        XCTAssertEqual(try answer(), try git(), "after a graft")
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent(".git/info/grafts"))
        XCTAssertEqual(try answer(), try git(), "after both are gone")
        try repo.git("replace", "--graft", parent)
        XCTAssertEqual(try answer(), try git(), "replaced again")
        repo.variables["GIT_NO_REPLACE_OBJECTS"] = "1"
        XCTAssertEqual(try answer(), try git(), "replacements off")
    }
}
