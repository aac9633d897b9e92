import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// Every format token read with libgit2 equals git's own answer for the same repository.
final class RevisionGitOracleTests: XCTestCase {
    func testLinearHistoryWithoutTags() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...4 { try repo.commit("c\(i)") }
        try repo.assertTokensMatchGit()
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        // No tag: {describe} is just the short id and {distance} the count.
        XCTAssertEqual(try context.render("{describe}"), try repo.git("rev-parse", "--short", "HEAD"))
        XCTAssertEqual(try context.render("{distance}"), "4")
    }

    func testMergesAndTagsAtDifferentDistances() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("base")
        try repo.git("tag", "-a", "v1.0", "-m", "release 1.0")
        try repo.commit("main-1")
        try repo.git("checkout", "-q", "-b", "feature/topic")
        try repo.commit("feature-1")
        try repo.commit("feature-2")
        try repo.git("tag", "v1.1-rc") // lightweight, on the side branch, nearer
        try repo.git("checkout", "-q", "main")
        try repo.commit("main-2")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge topic", "feature/topic")
        try repo.commit("after-merge")
        XCTAssertEqual(try repo.git("rev-list", "--count", "HEAD"), "7")
        try repo.assertTokensMatchGit()
        try repo.git("tag", "-a", "v2.0", "-m", "two", "HEAD~1")
        try repo.assertTokensMatchGit()
    }

    func testTagOnHeadGivesDistanceZero() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.commit("b")
        try repo.git("tag", "-a", "v1", "-m", "one")
        try repo.assertTokensMatchGit()
    }

    /// git prefers an annotated tag to a lightweight one on the same commit, and among
    /// annotated tags on one commit the newer; candidates at different depths go by depth.
    func testTieBreakingBetweenTags() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("tag", "light-a")
        try repo.git("tag", "-a", "zz-annotated-a", "-m", "a")
        try repo.commit("b")
        try repo.commit("c")
        try repo.assertTokensMatchGit()
        try repo.git("tag", "-a", "aa-older", "-m", "older", "HEAD~1")
        try repo.git("tag", "-a", "bb-newer", "-m", "newer", "HEAD~1")
        try repo.git("tag", "light-b", "HEAD~1")
        try repo.assertTokensMatchGit()
        // Two lightweight tags only, on the same commit.
        try repo.commit("d")
        try repo.git("tag", "x-light")
        try repo.git("tag", "a-light")
        try repo.assertTokensMatchGit()
    }

    func testDetachedHead() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        try repo.git("tag", "v0.1", "HEAD~2")
        try repo.git("checkout", "-q", "--detach", "HEAD~1")
        try repo.assertTokensMatchGit()
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        XCTAssertEqual(try context.render("{branch}"), "HEAD")
    }

    func testBranchNamesWithSlashesAndAmbiguousNames() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("checkout", "-q", "-b", "feature/deep/name")
        try repo.commit("b")
        try repo.assertTokensMatchGit()
        // A tag with the branch's name: git abbreviates the branch to heads/NAME.
        try repo.git("checkout", "-q", "-b", "release")
        try repo.git("tag", "release", "HEAD~1")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try repo.git("rev-parse", "--abbrev-ref", "HEAD"), "heads/release")
    }

    func testStagedOnlyChangeIsDirty() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "tracked.txt")
        try repo.write("tracked.txt", "staged\n")
        try repo.git("add", "tracked.txt")
        try repo.write("tracked.txt", "a\n") // work tree back to HEAD's content, index differs
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try render(repo, "{dirty}"), "M")
    }

    func testWorkTreeOnlyChangeIsDirty() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "tracked.txt")
        try repo.git("tag", "v1")
        try repo.write("tracked.txt", "changed\n")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try render(repo, "{dirty}", marker: "+dev"), "+dev")
        XCTAssertTrue(try render(repo, "{describe}").hasSuffix("-dirty"))
    }

    func testDeletedTrackedFileIsDirty() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "tracked.txt")
        try repo.commit("b", file: "other.txt")
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("other.txt"))
        try repo.assertTokensMatchGit()
    }

    /// A touched file (new mtime, same content) is clean; a mode change is dirty, as for git.
    func testTouchedAndChmoddedFiles() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "tracked.txt")
        let path = repo.root.appendingPathComponent("tracked.txt").path
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: path)
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try render(repo, "{dirty}"), "")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try render(repo, "{dirty}"), "M")
    }

    func testUntrackedFilesAreNotDirty() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "tracked.txt")
        try repo.write("untracked.txt", "new\n")
        try repo.write("newdir/deeper/file.txt", "new\n")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try render(repo, "{dirty}"), "")
    }

    func testDiscoveryFromSubdirectory() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "src/deep/file.txt")
        try repo.commit("b")
        try repo.git("tag", "v3")
        try repo.commit("c")
        try repo.assertTokensMatchGit(in: repo.root.appendingPathComponent("src/deep"))
    }

    func testLinkedWorktree() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        try repo.git("tag", "-a", "v1", "-m", "one", "HEAD~1")
        let worktree = repo.root.deletingLastPathComponent().appendingPathComponent("linked", isDirectory: true)
        try repo.git("worktree", "add", "-q", "-b", "wt/branch", worktree.path, "HEAD~1")
        try repo.commit("in-worktree", in: worktree)
        try repo.write("file-c1.txt", "edited in worktree\n", in: worktree)
        try repo.assertTokensMatchGit(in: worktree)
        XCTAssertEqual(try render(repo, "{branch}{dirty}", in: worktree), "wt/branchM")
        // The main work tree is unaffected.
        try repo.assertTokensMatchGit()
    }

    func testCoreAbbrevIsHonoured() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("tag", "v1")
        try repo.commit("b")
        try repo.git("config", "core.abbrev", "12")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try render(repo, "{short}").count, 12)
        try repo.git("config", "core.abbrev", "no")
        try repo.assertTokensMatchGit()
        try repo.git("config", "core.abbrev", "auto")
        try repo.assertTokensMatchGit()
    }

    /// git's auto-abbreviation grows past 7 digits from 2^14 packed objects on.
    func testShortIdGrowsWithPackedObjectCount() throws {
        let repo = try RevisionTestRepository(self)
        var stream = ""
        for i in 0..<16_500 { stream += "blob\ndata \(String(i).utf8.count + 1)\n\(i)\n\n" }
        stream += """
            blob
            mark :1
            data 6
            hello

            commit refs/heads/main
            committer Test <t@example.com> 1700000000 +0000
            data 5
            many

            M 100644 :1 hello.txt

            done

            """
        try repo.git("fast-import", "--quiet", "--done", stdin: Data(stream.utf8))
        try repo.git("reset", "-q", "--hard")
        let gitShort = try repo.git("rev-parse", "--short", "HEAD")
        XCTAssertGreaterThan(gitShort.count, 7, "the fixture must make git abbreviate past 7 digits")
        try repo.assertTokensMatchGit()
    }

    /// When the fixed start length is ambiguous, git (and versionstamp) extend it until unique.
    func testShortIdExtendsUntilUnique() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("config", "core.abbrev", "4")
        let head = try repo.git("rev-parse", "HEAD")
        // A blob whose id shares HEAD's first 4 digits (python3 tries about 65,000 hashes).
        let content = try blobContent(withIdPrefix: String(head.prefix(4)))
        try repo.write("collide.txt", content)
        let blob = try repo.git("hash-object", "-w", "collide.txt")
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("collide.txt"))
        XCTAssertEqual(blob.prefix(4), head.prefix(4))
        XCTAssertGreaterThan(try repo.git("rev-parse", "--short", "HEAD").count, 4)
        try repo.assertTokensMatchGit()
    }

    // MARK: helpers

    private func render(
        _ repo: RevisionTestRepository, _ format: String, marker: String = "M", in directory: URL? = nil
    ) throws -> String {
        try VersionContext.load(repository: (directory ?? repo.root).path, environment: repo.environment)
            .render(format, dirtyMarker: marker)
    }

    /// Content of a blob whose git id starts with `prefix`, found by python3's hashlib.
    private func blobContent(withIdPrefix prefix: String) throws -> String {
        let script = """
            import hashlib, sys
            prefix = sys.argv[1]
            i = 0
            while True:
                data = b"collide-%d" % i
                if hashlib.sha1(b"blob %d\\0" % len(data) + data).hexdigest().startswith(prefix):
                    sys.stdout.write(data.decode())
                    break
                i += 1
            """
        let result = try Oracle.python3.run(["-c", script, prefix])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText
    }
}
