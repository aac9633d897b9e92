import CGit2
import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// Repositories versionstamp cannot read give a clear error saying what to do.
final class RevisionErrorTests: XCTestCase {
    func testNotARepositoryMentionsOverride() throws {
        let repo = try RevisionTestRepository(self, initialize: false)
        let error = try loadError(repo.root, repo.environment)
        XCTAssertEqual(error.code, .notARepository)
        XCTAssertTrue(error.message.contains("not a git repository"), error.message)
        XCTAssertTrue(error.message.contains("VERSIONSTAMP_VERSION"), error.message)
        XCTAssertEqual(error.path, repo.root.path)
    }

    func testMissingStartDirectory() throws {
        let repo = try RevisionTestRepository(self, initialize: false)
        let missing = repo.root.appendingPathComponent("no-such-dir")
        let error = try loadError(missing, repo.environment)
        XCTAssertEqual(error.code, .noSuchDirectory)
        XCTAssertTrue(error.message.contains("no such directory"), error.message)
    }

    /// A shallow clone (`--depth 1`, CI's default checkout): the tokens of HEAD alone equal
    /// git's; the history tokens are refused, whatever libgit2 can walk (1.7 and later read
    /// shallow clones), since the history is incomplete either way.
    func testShallowCloneAnswersHeadAndRefusesHistory() throws {
        let origin = try RevisionTestRepository(self)
        for i in 1...3 { try origin.commit("c\(i)") }
        try origin.git("tag", "-a", "v1.0.0", "-m", "one")
        try origin.commit("c4")
        let clone = origin.root.deletingLastPathComponent().appendingPathComponent("shallow")
        try origin.git("clone", "-q", "--depth", "1", "file://\(origin.root.path)", clone.path)
        XCTAssertEqual(try origin.git("rev-parse", "--is-shallow-repository", in: clone), "true")
        let headTokens: [VersionToken] = [.sha, .short, .branch, .dirty, .date, .timestamp]
        try origin.assertTokensMatchGit(in: clone, only: headTokens)
        try origin.write("file-c4.txt", "changed\n", in: clone)
        XCTAssertEqual(try origin.gitAnswers(in: clone)[.dirty], "M")
        try origin.assertTokensMatchGit(in: clone, only: headTokens)
        let context = try VersionContext.load(repository: clone.path, environment: origin.environment)
        for token in VersionToken.allCases where !headTokens.contains(token) {
            XCTAssertThrowsError(try context.render("{\(token.rawValue)}"), "{\(token.rawValue)}") { error in
                let error = error as? VersionStampError
                XCTAssertEqual(error?.code, .shallowClone)
                XCTAssertEqual(error?.path, clone.path)
                let message = error?.message ?? ""
                XCTAssertTrue(message.contains("git fetch --unshallow"), message)
                XCTAssertTrue(message.contains("fetch-depth: 0"), message)
                XCTAssertFalse(message.contains("libgit2"), "no stale word on libgit2: \(message)")
            }
        }
    }

    /// `extensions.worktreeConfig` depends on the libgit2 linked: 1.5 to 1.7 refuse it, and the
    /// error names the extension; 1.8 and later read such a repository, and the answer is git's.
    func testWorktreeConfigExtensionIsNamedOrRead() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("config", "core.repositoryformatversion", "1")
        try repo.git("config", "extensions.worktreeConfig", "true")
        XCTAssertEqual(try repo.git("rev-list", "--count", "HEAD"), "1", "git itself reads the repository")
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        XCTAssertEqual(git_libgit2_version(&major, &minor, &revision), 0)
        if (major, minor) >= (1, 8) {
            let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
            XCTAssertEqual(try context.render("{count} {branch}"), "1 main", "libgit2 \(major).\(minor) reads it")
            return
        }
        let error = try loadError(repo.root, repo.environment)
        XCTAssertEqual(error.code, .unsupportedExtension)
        XCTAssertTrue(error.message.lowercased().contains("extensions.worktreeconfig"), error.message)
        XCTAssertTrue(error.message.contains("unsupported repository extension"), error.message)
    }

    /// No libgit2 from 1.5 to 1.9 reads `extensions.partialClone`.
    func testPartialCloneExtensionIsNamed() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("config", "core.repositoryformatversion", "1")
        try repo.git("config", "extensions.partialClone", "origin")
        XCTAssertEqual(try repo.git("rev-list", "--count", "HEAD"), "1", "git itself reads the repository")
        let error = try loadError(repo.root, repo.environment)
        XCTAssertEqual(error.code, .unsupportedExtension)
        XCTAssertTrue(error.message.lowercased().contains("extensions.partialclone"), error.message)
    }

    /// git's "dubious ownership" check: libgit2 refuses such a repository too, 1.6 and later
    /// with GIT_EOWNER, 1.5 with a misleading "safe.directory not found"; the error is the same
    /// either way and names safe.directory. Needs root to chown.
    func testRepositoryOwnedByAnotherUser() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give the repository to another user") }
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        let chown = try ProcessRunner.run("/bin/chown", ["-R", "nobody", repo.root.path])
        XCTAssertEqual(chown.status, 0)
        let git = try repo.runGit(["rev-parse", "HEAD"], allowFailure: true)
        XCTAssertNotEqual(git.status, 0, "git refuses the repository too")
        let error = try loadError(repo.root, repo.environment)
        XCTAssertEqual(error.code, .repositoryOwnership)
        XCTAssertTrue(error.message.contains("safe.directory"), error.message)
        XCTAssertTrue(error.message.contains("owned by another user"), error.message)
    }

    func testUnbornHead() throws {
        let repo = try RevisionTestRepository(self)
        XCTAssertNotEqual(try repo.runGit(["rev-parse", "HEAD"], allowFailure: true).status, 0)
        let error = try loadError(repo.root, repo.environment)
        XCTAssertEqual(error.code, .noCommits)
        XCTAssertTrue(error.message.contains("no commits"), error.message)
    }

    func testOverrideNeedsNoRepository() throws {
        let repo = try RevisionTestRepository(self, initialize: false)
        var env = repo.environment
        env["VERSIONSTAMP_VERSION"] = "4.2.0-tarball"
        let context = try VersionContext.load(repository: repo.root.path, environment: env)
        XCTAssertEqual(try context.render("{count}{dirty}"), "4.2.0-tarball")
        XCTAssertEqual(try context.render("{sha} and {unknown}"), "4.2.0-tarball")
        XCTAssertNil(try context.revision())
    }

    private func loadError(
        _ directory: URL, _ environment: [String: String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> VersionStampError {
        do {
            let context = try VersionContext.load(repository: directory.path, environment: environment)
            XCTFail(
                "expected an error, got \(String(describing: try? context.render("{count}")))", file: file, line: line)
            return VersionStampError(.internalError, message: "no error")
        } catch let error as VersionStampError {
            return error
        }
    }
}

/// `--path` values become paths relative to the work tree's root, taken from `--repo` (or the
/// current directory) as `git -C DIR rev-list HEAD -- PATH` reads them; outside is an error.
final class RevisionQueryPathsTests: XCTestCase {
    private var repo: RevisionTestRepository!

    override func setUpWithError() throws {
        repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "app/ios/a.txt")
        try repo.commit("b", file: "lib/b.txt")
    }

    private func resolved(_ paths: [String], from start: URL) throws -> [String] {
        try RevisionReader(
            discoveringFrom: start.path, environment: repo.environment,
            query: RevisionQuery(paths: paths)
        ).query.paths
    }

    private func assertOutside(_ path: String, from start: URL, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try resolved([path], from: start), path, file: file, line: line) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .pathOutsideRepository, file: file, line: line)
            XCTAssertEqual((error as? VersionStampError)?.path, path, file: file, line: line)
            XCTAssertTrue(
                (error as? VersionStampError)?.message.contains("outside the repository") ?? false, file: file,
                line: line)
        }
    }

    func testRelativeToTheStartingDirectory() throws {
        XCTAssertEqual(try resolved(["app", "lib/"], from: repo.root), ["app", "lib"])
        let ios = repo.root.appendingPathComponent("app/ios")
        XCTAssertEqual(
            try resolved([".", "..", "../../lib", "./x/../y"], from: ios), ["app/ios", "app", "lib", "app/ios/y"])
    }

    func testTheRootItselfIsDot() throws {
        XCTAssertEqual(try resolved([".", repo.root.path, "app/.."], from: repo.root), [".", ".", "."])
    }

    func testAbsolutePathsAndPathsThatDoNotExist() throws {
        let absolute = repo.root.appendingPathComponent("app/ios").path
        XCTAssertEqual(try resolved([absolute, "gone/dir"], from: repo.root), ["app/ios", "gone/dir"])
    }

    func testOutsideTheWorkTreeIsAnError() {
        assertOutside("..", from: repo.root)
        assertOutside("../../..", from: repo.root.appendingPathComponent("app"))
        assertOutside("/", from: repo.root)
        assertOutside(repo.home.path, from: repo.root)
        assertOutside(".git/..//../x", from: repo.root)
    }

    /// A symbolic link in the work tree is a path of its own to git, wherever it points; a
    /// starting directory reached through a link is resolved like the work tree is.
    func testSymbolicLinks() throws {
        try FileManager.default.createSymbolicLink(
            atPath: repo.root.appendingPathComponent("out").path,
            withDestinationPath: repo.home.path)
        XCTAssertEqual(try resolved(["out"], from: repo.root), ["out"])
        let alias = repo.home.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(
            atPath: alias.path, withDestinationPath: repo.root.appendingPathComponent("app").path)
        XCTAssertEqual(try resolved(["ios"], from: alias), ["app/ios"])
    }

    func testNoPathsNeedNoWorkTree() throws {
        XCTAssertEqual(try resolved([], from: repo.root), [])
    }
}
