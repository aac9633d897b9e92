import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// git's environment variables place the repository for versionstamp as for git: every token
/// equals git's answer with the same variables set (the oracle runs git with them too).
final class RepositoryEnvironmentTests: XCTestCase {
    /// A repository `src` beside the test's repository (which has more commits), with a tag,
    /// a modified tracked file and an untracked one.
    private func sourceRepository(_ repo: RevisionTestRepository) throws -> URL {
        for i in 1...6 { try repo.commit("outer-\(i)") }
        let src = repo.root.deletingLastPathComponent().appendingPathComponent("src dir")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        try repo.git("init", "-q", "-b", "trunk", in: src)
        for i in 1...3 { try repo.commit("src-\(i)", in: src) }
        try repo.git("tag", "-a", "v1.2.0", "-m", "release", in: src)
        try repo.commit("src-4", in: src)
        try repo.write("file-src-2.txt", "changed\n", in: src)
        try repo.write("untracked.txt", "new\n", in: src)
        return src
    }

    /// `GIT_DIR=/path/src/.git versionstamp print` inside another repository answers for src
    /// (the case: the enclosing repository's count was printed).
    func testGitDirInsideAnotherRepositoryAnswersForIt() throws {
        let repo = try RevisionTestRepository(self)
        let src = try sourceRepository(repo)
        repo.variables["GIT_DIR"] = src.appendingPathComponent(".git").path
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        XCTAssertEqual(try context.render("{count} {branch} {tag}"), "4 trunk v1.2.0")
        try repo.assertTokensMatchGit()
        try repo.assertHistoryMatchesGit(RevisionQuery(firstParent: true), "GIT_DIR")
    }

    /// A hook runs at the work tree's top with a relative `GIT_DIR` (and, for `git commit -a`,
    /// `GIT_INDEX_FILE`).
    func testHookWithRelativeGitDir() throws {
        let repo = try RevisionTestRepository(self)
        let src = try sourceRepository(repo)
        repo.variables["GIT_DIR"] = ".git"
        try repo.assertTokensMatchGit(in: src)
        XCTAssertEqual(try repo.gitAnswers(in: src)[.dirty], "M", "the oracle sees the modified file")
    }

    /// A dotfiles-style bare repository used with `GIT_DIR` and `GIT_WORK_TREE`; run from the
    /// work tree and from elsewhere.
    func testBareRepositoryWithWorkTree() throws {
        let repo = try RevisionTestRepository(self, initialize: false)
        let bare = repo.root.deletingLastPathComponent().appendingPathComponent("dotfiles.git")
        try repo.git("init", "-q", "--bare", "-b", "main", bare.path)
        repo.variables = ["GIT_DIR": bare.path, "GIT_WORK_TREE": repo.root.path]
        for i in 1...3 { try repo.commit("dot-\(i)") }
        try repo.git("tag", "v0.9")
        try repo.commit("dot-4")
        try repo.write("untracked.txt", "not tracked\n")
        try repo.assertTokensMatchGit()
        try repo.write("file-dot-4.txt", "changed\n")
        XCTAssertEqual(try repo.gitAnswers()[.dirty], "M")
        try repo.assertTokensMatchGit()
        try repo.assertTokensMatchGit(in: repo.home)
        // Without GIT_WORK_TREE the repository is bare again (git refuses --dirty there).
        repo.variables["GIT_WORK_TREE"] = nil
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        XCTAssertEqual(try context.render("{count}{dirty}"), try repo.git("rev-list", "--count", "HEAD"))
    }

    /// `GIT_INDEX_FILE`: an index holding an older tree makes HEAD dirty for git and versionstamp.
    func testIndexFileDecidesDirty() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        let index = repo.root.deletingLastPathComponent().appendingPathComponent("other index").path
        repo.variables["GIT_INDEX_FILE"] = index
        try repo.git("read-tree", "HEAD")
        try repo.assertTokensMatchGit()
        try repo.git("read-tree", "HEAD~1")
        XCTAssertEqual(try repo.gitAnswers()[.dirty], "M")
        try repo.assertTokensMatchGit()
        repo.variables["GIT_INDEX_FILE"] = nil
        XCTAssertEqual(try repo.gitAnswers()[.dirty], "", "the repository's own index is clean")
        try repo.assertTokensMatchGit()
    }

    /// `GIT_OBJECT_DIRECTORY` (the objects moved out of `.git`) and
    /// `GIT_ALTERNATE_OBJECT_DIRECTORIES` (a clone whose history is only in the named store).
    func testObjectDirectoryAndAlternatesFromTheEnvironment() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...4 { try repo.commit("c\(i)", file: "dir/c\(i).txt") }
        try repo.git("tag", "-a", "v1.0.0", "-m", "one")
        for i in 5...7 { try repo.commit("c\(i)") }
        try repo.git("repack", "-q", "-a", "-d")
        try repo.commit("loose")
        let clone = repo.root.deletingLastPathComponent().appendingPathComponent("clone")
        try repo.git("clone", "-q", "--shared", repo.root.path, clone.path)
        let moved = repo.root.deletingLastPathComponent().appendingPathComponent("moved-objects")
        try FileManager.default.moveItem(at: repo.root.appendingPathComponent(".git/objects"), to: moved)
        try FileManager.default.createDirectory(
            at: repo.root.appendingPathComponent(".git/objects"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try repo.versionstamp(RevisionQuery()), "without the variable the objects are gone")
        repo.variables["GIT_OBJECT_DIRECTORY"] = moved.path
        try repo.assertTokensMatchGit()
        try repo.assertHistoryMatchesGit(RevisionQuery(paths: ["dir"]), "GIT_OBJECT_DIRECTORY")

        // The clone's own alternates file named the old place: only the variable names the store.
        repo.variables = [:]
        try FileManager.default.removeItem(at: clone.appendingPathComponent(".git/objects/info/alternates"))
        XCTAssertThrowsError(
            try RevisionReader(discoveringFrom: clone.path, environment: repo.environment, caching: .off)
                .revision([.count]))
        repo.variables["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = "/nonexistent:" + moved.path
        try repo.assertTokensMatchGit(in: clone)
        let reader = try RevisionReader(discoveringFrom: clone.path, environment: repo.environment, caching: .off)
        XCTAssertEqual(reader.repository.objectDirectories.last, moved.path)
    }

    /// `GIT_COMMON_DIR` naming the git dir's own common dir (a linked worktree's) is honoured;
    /// another one is refused, naming the variable, rather than answering for the wrong repository.
    func testCommonDirOfALinkedWorktree() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("c\(i)") }
        let worktree = repo.root.deletingLastPathComponent().appendingPathComponent("linked")
        try repo.git("worktree", "add", "-q", "-b", "side", worktree.path)
        try repo.commit("side-1", in: worktree)
        repo.variables = [
            "GIT_DIR": repo.root.appendingPathComponent(".git/worktrees/linked").path,
            "GIT_COMMON_DIR": repo.root.appendingPathComponent(".git").path,
        ]
        try repo.assertTokensMatchGit(in: worktree)

        let other = try RevisionTestRepository(self)
        try other.commit("x")
        repo.variables["GIT_COMMON_DIR"] = other.root.appendingPathComponent(".git").path
        XCTAssertThrowsError(try VersionContext.load(repository: worktree.path, environment: repo.environment)) {
            error in
            let error = error as? VersionStampError
            XCTAssertTrue(error?.message.contains("GIT_COMMON_DIR") == true, "\(String(describing: error))")
        }
    }

    /// A `GIT_DIR` naming no repository is an error naming it, as git fails there too.
    func testGitDirNamingNothing() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        repo.variables["GIT_DIR"] = repo.root.appendingPathComponent("nothing-here").path
        XCTAssertNotEqual(try repo.runGit(["rev-parse", "HEAD"], allowFailure: true).status, 0)
        XCTAssertThrowsError(try VersionContext.load(repository: repo.root.path, environment: repo.environment)) {
            error in
            XCTAssertEqual((error as? VersionStampError)?.code, .notARepository)
            XCTAssertEqual((error as? VersionStampError)?.path, repo.variables["GIT_DIR"])
        }
    }
}
