import Foundation
import VersionStampKit
import XCTest

/// `{branch}` equals `git rev-parse --abbrev-ref HEAD` when names collide (strict
/// shortening under `core.warnAmbiguousRefs`, which is on by default).
final class RefAbbreviationTests: XCTestCase {
    private func assertBranchMatchesGit(
        _ repo: RevisionTestRepository, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        XCTAssertEqual(
            try context.render("{branch}"), try repo.git("rev-parse", "--abbrev-ref", "HEAD"), label,
            file: file, line: line)
    }

    func testCollidingNames() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        let head = try repo.git("rev-parse", "HEAD")
        // Remote-tracking refs and tags that collide with the local branches below.
        for ref in [
            "refs/remotes/origin/main", "refs/remotes/upstream/HEAD", "refs/tags/release",
            "refs/remotes/heads/x", "refs/tags/heads/y", "refs/remotes/tags/v1",
        ] {
            try repo.git("update-ref", ref, head)
        }
        for branch in ["origin/main", "upstream", "release", "heads/x", "y", "tags/v1", "plain", "origin/HEAD"] {
            try repo.git("checkout", "-q", "-B", branch)
            try assertBranchMatchesGit(repo, branch)
            try repo.git("config", "core.warnAmbiguousRefs", "false")
            try assertBranchMatchesGit(repo, "\(branch) (not strict)")
            try repo.git("config", "--unset", "core.warnAmbiguousRefs")
        }
        try repo.git("checkout", "-q", "origin/main")
        XCTAssertEqual(try repo.git("rev-parse", "--abbrev-ref", "HEAD"), "heads/origin/main")
    }
}

/// `{dirty}` and describe's `-dirty` equal git's where libgit2's status (1.5's at least) differs:
/// sparse checkouts (skip-worktree entries) and old trees with 100664 blob modes.
final class WorkTreeStatusTests: XCTestCase {
    private func dirty(_ repo: RevisionTestRepository) throws -> String {
        try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}")
    }

    /// Entries outside the sparse cone are absent from the work tree: git says clean.
    func testSparseCheckoutIsClean() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("in", file: "in/a.txt")
        try repo.commit("out", file: "out/b.txt")
        try repo.commit("top", file: "top.txt")
        try repo.git("tag", "v1")
        try repo.git("sparse-checkout", "set", "in")
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.root.appendingPathComponent("out/b.txt").path))
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try dirty(repo), "")
        // A real change inside the cone is still dirty; a staged deletion outside it too.
        try repo.write("in/a.txt", "changed\n")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try dirty(repo), "M")
        try repo.git("checkout", "-q", "--", "in/a.txt")
        try repo.git("rm", "-q", "--cached", "--sparse", "out/b.txt")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try dirty(repo), "M")
    }

    /// A skip-worktree file present but edited: git does not look at it.
    func testSkipWorktreeFileEditedIsClean() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "config.txt")
        try repo.commit("b", file: "other.txt")
        try repo.git("update-index", "--skip-worktree", "config.txt")
        try repo.write("config.txt", "local edit\n")
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("other.txt"))
        try repo.git("update-index", "--skip-worktree", "other.txt")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try dirty(repo), "")
    }

    /// A tree storing a blob as 100664 (early git): git reads it as 100644, so a fresh
    /// checkout of it is clean; a real change is still dirty.
    func testOldTreeModesAreClean() throws {
        let repo = try RevisionTestRepository(self)
        try repo.write("old.txt", "old\n")
        try repo.write("tool.sh", "#!/bin/sh\n")
        let blob = try repo.git("hash-object", "-w", "old.txt")
        let script = try repo.git("hash-object", "-w", "tool.sh")
        let sub = try repo.git("mktree", stdin: Data("100664 blob \(blob)\tinner.txt\n".utf8))
        let listing = "100664 blob \(blob)\told.txt\n100775 blob \(script)\ttool.sh\n040000 tree \(sub)\tdir\n"
        let tree = try repo.git("mktree", stdin: Data(listing.utf8))
        let commit = try repo.git("commit-tree", tree, "-m", "old modes")
        try repo.git("update-ref", "refs/heads/main", commit)
        try repo.git("reset", "-q", "--hard")
        try repo.git("tag", "-a", "v0.1", "-m", "old")
        XCTAssertTrue(try repo.git("cat-file", "tree", "HEAD^{tree}").contains("100664"))
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try dirty(repo), "")
        try repo.write("dir/inner.txt", "new\n")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(try dirty(repo), "M")
    }

    /// Other index flags and settings git's dirty check honours: assume-unchanged entries,
    /// intent-to-add entries, core.fileMode=false, a file replaced by a directory.
    func testIndexFlagsAndSettings() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "assumed.txt")
        try repo.commit("b", file: "mode.sh")
        try repo.git("update-index", "--assume-unchanged", "assumed.txt")
        try repo.write("assumed.txt", "edited\n")
        try repo.assertTokensMatchGit()
        try repo.write("new.txt", "new\n")
        try repo.git("add", "-N", "new.txt")
        try repo.assertTokensMatchGit()
        try repo.git("rm", "-q", "--cached", "new.txt")
        try repo.git("config", "core.fileMode", "false")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: repo.root.appendingPathComponent("mode.sh").path)
        try repo.assertTokensMatchGit()
        try repo.git("config", "core.fileMode", "true")
        try repo.assertTokensMatchGit()
    }

    /// core.ignoreCase (git sets it on a case-insensitive file system; it stays when such a
    /// repository is copied to Linux): libgit2 pairs a tracked file with a work-tree file whose
    /// name differs only in case and reported nothing, where git, looking the file up by the
    /// index's name, finds it deleted on a case-sensitive file system. A file or a directory
    /// renamed in case; an assume-unchanged file renamed, which git does not look at.
    func testIgnoreCaseSeesAFileRenamedInCase() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "dir/a.txt")
        try repo.commit("b", file: "kept.txt")
        try repo.git("config", "core.ignoreCase", "true")
        let fileManager = FileManager.default
        func rename(_ from: String, _ to: String) throws {
            // Through a third name: a case-insensitive file system would refuse the direct move.
            let source = repo.root.appendingPathComponent(from),
                between = repo.root.appendingPathComponent(to + ".moving")
            try fileManager.moveItem(at: source, to: between)
            try fileManager.moveItem(at: between, to: repo.root.appendingPathComponent(to))
        }
        let foldsCase = fileManager.fileExists(atPath: repo.root.appendingPathComponent("DIR/A.TXT").path)
        XCTAssertEqual(try dirty(repo), "")
        try rename("dir/a.txt", "dir/A.txt")
        try repo.assertTokensMatchGit(label: "a file renamed in case")
        XCTAssertEqual(try dirty(repo), foldsCase ? "" : "M")
        try rename("dir/A.txt", "dir/a.txt")
        try rename("dir", "Dir")
        try repo.assertTokensMatchGit(label: "a directory renamed in case")
        XCTAssertEqual(try dirty(repo), foldsCase ? "" : "M")
        try rename("Dir", "dir")
        try repo.git("update-index", "--assume-unchanged", "kept.txt")
        try rename("kept.txt", "KEPT.txt")
        try repo.assertTokensMatchGit(label: "an assume-unchanged file renamed in case")
        XCTAssertEqual(try dirty(repo), "")
    }
}
