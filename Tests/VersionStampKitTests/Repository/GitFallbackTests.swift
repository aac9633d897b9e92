import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// What libgit2 refuses but git reads (`GitFallback`): an index with a split-index (`link`) or
/// sparse-index (`sdir`) extension, and a HEAD commit whose date libgit2 rejects. Every token
/// equals git's there, clean and dirty. And what git alone judges: submodules.
final class GitFallbackTests: XCTestCase {
    /// A repository with two commits, a tag and files in two directories.
    private func makeRepository() throws -> RevisionTestRepository {
        let repo = try RevisionTestRepository(self)
        try repo.commit("one", file: "app/one.txt")
        try repo.commit("two", file: "docs/two.txt")
        try repo.git("tag", "v1.0")
        try repo.commit("three", file: "app/three.txt")
        return repo
    }

    private func indexExtensions(_ repo: RevisionTestRepository) -> [String] {
        GitFallback.mandatoryIndexExtensions(at: repo.root.appendingPathComponent(".git/index").path)
    }

    func testSplitIndexAnswersAsGit() throws {
        let repo = try makeRepository()
        try repo.git("config", "core.splitIndex", "true")
        try repo.git("update-index", "--split-index")
        try repo.commit("four", file: "app/four.txt")
        XCTAssertEqual(indexExtensions(repo), ["link"], "the index must be split for this test to mean anything")
        try repo.assertTokensMatchGit()
        try repo.write("app/one.txt", "changed\n")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(
            try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}"), "M")
        try repo.git("add", "app/one.txt")
        try repo.assertTokensMatchGit()
        try repo.git("reset", "-q", "--hard")
        XCTAssertEqual(indexExtensions(repo), ["link"])
        try repo.assertTokensMatchGit()
    }

    /// A split index named by `GIT_INDEX_FILE` (relative to where the command runs, as a hook
    /// may set it): libgit2 cannot open it, and every token still equals git's.
    func testSplitIndexNamedByIndexFileAnswersAsGit() throws {
        let repo = try makeRepository()
        repo.variables["GIT_INDEX_FILE"] = "other-index"
        try repo.git("read-tree", "HEAD")
        try repo.git("update-index", "--split-index")
        XCTAssertEqual(
            GitFallback.mandatoryIndexExtensions(at: repo.root.appendingPathComponent("other-index").path), ["link"],
            "the index must be split for this test to mean anything")
        try repo.write(".git/info/exclude", "other-index\n")
        try repo.assertTokensMatchGit()
        XCTAssertEqual(
            try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}"), "")
        try repo.write("app/one.txt", "changed\n")
        XCTAssertEqual(
            try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}"), "M")
        try repo.assertTokensMatchGit()
        // That index, not the repository's own: staging an older tree there is a change.
        try repo.git("checkout", "-q", "--", "app/one.txt")
        try repo.git("read-tree", "HEAD~1")
        XCTAssertEqual(
            try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}"), "M")
        try repo.assertTokensMatchGit()
    }

    /// Index version 4 (prefix-compressed paths) and an intent-to-add entry (extended flags,
    /// version 3 and later) in a split index: the walk to the extensions reads both.
    func testSplitIndexVersionFourWithExtendedFlags() throws {
        let repo = try makeRepository()
        for version in ["4", "3"] {
            try repo.git("update-index", "--index-version", version)
            try repo.write("app/new-\(version).txt", "new\n")
            try repo.git("add", "-N", "app/new-\(version).txt")
            try repo.git("update-index", "--split-index")
            XCTAssertEqual(indexExtensions(repo), ["link"], "index version \(version)")
            try repo.assertTokensMatchGit()
            try repo.git("rm", "-q", "--cached", "app/new-\(version).txt")
            try repo.git("update-index", "--no-split-index")
        }
    }

    func testSparseIndexAnswersAsGit() throws {
        let repo = try makeRepository()
        try repo.git("sparse-checkout", "set", "--sparse-index", "app")
        XCTAssertEqual(indexExtensions(repo), ["sdir"], "the index must be sparse for this test to mean anything")
        try repo.assertTokensMatchGit()
        try repo.write("app/one.txt", "changed\n")
        try repo.assertTokensMatchGit()
        try repo.git("checkout", "-q", "--", "app/one.txt")
        try repo.assertTokensMatchGit()
    }

    /// Without git on PATH the answer cannot be had: an error naming the extension, not a guess.
    func testSplitIndexWithoutGitIsAClearError() throws {
        let repo = try makeRepository()
        try repo.git("update-index", "--split-index")
        try assertDirtyNeedsGit(repo, naming: "'link'")
    }

    /// With no git on PATH, `{count}` is answered and `{dirty}` fails with an error that says
    /// git is missing and contains `naming` (why git was needed).
    private func assertDirtyNeedsGit(
        _ repo: RevisionTestRepository, naming: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var environment = repo.environment
        environment["PATH"] = repo.root.appendingPathComponent("no-tools-here").path
        let context = try VersionContext.load(repository: repo.root.path, environment: environment)
        XCTAssertEqual(
            try context.render("{count}"), try repo.git("rev-list", "--count", "HEAD"), file: file, line: line)
        XCTAssertThrowsError(try context.render("{dirty}"), file: file, line: line) { error in
            let failure = error as? VersionStampError
            XCTAssertEqual(failure?.code, .gitFailure, "\(error)", file: file, line: line)
            XCTAssertTrue(failure?.message.contains(naming) ?? false, "\(error)", file: file, line: line)
            XCTAssertTrue(failure?.message.contains("not on PATH") ?? false, "\(error)", file: file, line: line)
        }
    }

    /// git 2.39 writes a commit dated 1970-01-01T00:30+0100 as 2^64-1800 seconds; libgit2
    /// rejects it ("cannot be peeled"). git answers every token there, and so must versionstamp.
    func testCommitDateLibgit2RejectsAnswersAsGit() throws {
        let repo = try makeRepository()
        let tree = try repo.git("write-tree")
        let parent = try repo.git("rev-parse", "HEAD")
        let object =
            "tree \(tree)\nparent \(parent)\nauthor A <a@example.com> 18446744073709549816 +0100\n"
            + "committer A <a@example.com> 18446744073709549816 +0100\n\nfour\n"
        let commit = try repo.git("hash-object", "-t", "commit", "-w", "--stdin", stdin: Data(object.utf8))
        try repo.git("update-ref", "refs/heads/main", commit)
        let reader = try RevisionReader(discoveringFrom: repo.root.path, environment: repo.environment, caching: .off)
        XCTAssertFalse(
            reader.repository.canParseCommit(reader.head),
            "libgit2 must reject the commit for this test to mean anything")
        try repo.assertTokensMatchGit()
        try repo.write("app/one.txt", "changed\n")
        try repo.assertTokensMatchGit()
        try repo.git("update-ref", "refs/tags/v2.0", commit)
        try repo.assertTokensMatchGit()
    }

    /// A repository with two commits changing `f.txt`, to be cloned as a submodule.
    private func makeSubmoduleSource() throws -> RevisionTestRepository {
        let sub = try RevisionTestRepository(self)
        try sub.commit("sub-one", file: "f.txt")
        try sub.commit("sub-two", file: "f.txt")
        return sub
    }

    /// A superproject whose `sub` is a submodule cloned from `source` (default: a new one) at its
    /// second commit, committed.
    private func makeSuperproject(source: RevisionTestRepository? = nil) throws -> RevisionTestRepository {
        let sub = try source ?? makeSubmoduleSource()
        let repo = try RevisionTestRepository(self)
        try repo.commit("one")
        try repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.root.path, "sub")
        try repo.git("commit", "-q", "-m", "add submodule")
        return repo
    }

    /// `{dirty}` (and `{describe}`'s suffix) equal git's for a submodule in every state: moved
    /// to another commit, changed, staged, ignored by `submodule.<name>.ignore` (which git
    /// honours) or by `diff.ignoreSubmodules` (which it does not), unpopulated, missing,
    /// removed from the index. versionstamp said clean in seven of these before; git decides
    /// (the set of its answers below must hold both, or the cases test nothing).
    func testSubmodulesAreDirtyAsGitSays() throws {
        let cases: [(String, (RevisionTestRepository) throws -> Void)] = [
            ("clean", { _ in }),
            (
                "moved to its first commit",
                { try $0.git("checkout", "-q", "HEAD~1", in: $0.root.appendingPathComponent("sub")) }
            ),
            ("a tracked file changed", { try $0.write("sub/f.txt", "changed\n") }),
            (
                "a change staged in it",
                { repo in
                    try repo.write("sub/f.txt", "changed\n")
                    try repo.git("add", "f.txt", in: repo.root.appendingPathComponent("sub"))
                }
            ),
            ("an untracked file in it", { try $0.write("sub/new.txt", "new\n") }),
            (
                "ignore=dirty and changed",
                { repo in
                    try repo.git("config", "-f", ".gitmodules", "submodule.sub.ignore", "dirty")
                    try repo.git("commit", "-q", "-am", "ignore dirty")
                    try repo.write("sub/f.txt", "changed\n")
                }
            ),
            (
                "ignore=dirty and moved",
                { repo in
                    try repo.git("config", "-f", ".gitmodules", "submodule.sub.ignore", "dirty")
                    try repo.git("commit", "-q", "-am", "ignore dirty")
                    try repo.git("checkout", "-q", "HEAD~1", in: repo.root.appendingPathComponent("sub"))
                }
            ),
            (
                "ignore=all in the config and moved",
                { repo in
                    try repo.git("config", "submodule.sub.ignore", "all")
                    try repo.git("checkout", "-q", "HEAD~1", in: repo.root.appendingPathComponent("sub"))
                }
            ),
            (
                "diff.ignoreSubmodules=all and moved",
                { repo in
                    try repo.git("config", "diff.ignoreSubmodules", "all")
                    try repo.git("checkout", "-q", "HEAD~1", in: repo.root.appendingPathComponent("sub"))
                }
            ),
            (
                "moved and staged",
                { repo in
                    try repo.git("checkout", "-q", "HEAD~1", in: repo.root.appendingPathComponent("sub"))
                    try repo.git("add", "sub")
                }
            ),
            ("unpopulated (deinit)", { try $0.git("submodule", "deinit", "-q", "-f", "sub") }),
            (
                "unpopulated, another commit staged",
                { repo in
                    let first = try repo.git("rev-parse", "HEAD~1", in: repo.root.appendingPathComponent("sub"))
                    try repo.git("submodule", "deinit", "-q", "-f", "sub")
                    try repo.git("update-index", "--cacheinfo", "160000,\(first),sub")
                }
            ),
            (
                "its directory missing",
                { try FileManager.default.removeItem(at: $0.root.appendingPathComponent("sub")) }
            ),
            ("removed from the index only", { try $0.git("rm", "-q", "--cached", "sub") }),
        ]
        let source = try makeSubmoduleSource()
        var gitSaid: Set<String> = []
        for (name, change) in cases {
            let repo = try makeSuperproject(source: source)
            try change(repo)
            gitSaid.insert(try repo.git("describe", "--always", "--dirty"))
            try repo.assertTokensMatchGit(only: [.dirty, .describe], label: name)
        }
        XCTAssertEqual(Set(gitSaid.map { $0.hasSuffix("-dirty") }), [false, true])
    }

    /// A checked-out submodule without git on PATH: an error naming it, not a guess.
    func testCheckedOutSubmoduleWithoutGitIsAClearError() throws {
        try assertDirtyNeedsGit(try makeSuperproject(), naming: "submodule 'sub'")
    }

    /// git's failure reaches the error with its exit status and its standard error, and its
    /// standard output is not taken for an answer (a stand-in `git` on PATH fails this way).
    func testGitFailureIsReportedWithItsMessage() throws {
        let repo = try makeSuperproject()
        let tools = repo.root.deletingLastPathComponent().appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let fake = tools.appendingPathComponent("git")
        try "#!/bin/sh\necho 'not an answer'\necho \"fatal: stand-in for $3\" >&2\nexit 3\n".write(
            to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        var environment = repo.environment
        environment["PATH"] = tools.path
        let context = try VersionContext.load(repository: repo.root.path, environment: environment)
        XCTAssertThrowsError(try context.render("{dirty}")) { error in
            let message = (error as? VersionStampError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("'git diff-index' failed (exit 3): fatal: stand-in for diff-index"), message)
        }
    }

    /// A file git converts before comparing it with the index (a filter driver, as
    /// `git lfs install` configures one; a working-tree encoding), whose stat data do not
    /// prove it unchanged: libgit2 hashes it as it is and called it modified, so a checkout
    /// of a git-lfs repository whose last files shared the index's timestamp stamped `M`.
    /// versionstamp answers first in each case (git's describe refreshes the index, which
    /// would hide the case), then git; both answers must occur.
    func testConvertedFilesAreDirtyAsGitSays() throws {
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        func touch(_ repo: RevisionTestRepository, _ path: String) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: old], ofItemAtPath: repo.root.appendingPathComponent(path).path)
        }
        func filtered(driver: Bool) throws -> RevisionTestRepository {
            let repo = try RevisionTestRepository(self)
            if driver {
                try repo.git("config", "filter.upper.clean", "tr a-z A-Z")
                try repo.git("config", "filter.upper.smudge", "tr A-Z a-z")
            }
            try repo.write(".gitattributes", "*.txt filter=upper\n")
            try repo.write("a.txt", "hello\n")
            try repo.commit("one", file: "b.txt")
            return repo
        }
        func encoded() throws -> RevisionTestRepository {
            let repo = try RevisionTestRepository(self)
            try repo.write(".gitattributes", "*.strings working-tree-encoding=UTF-16\n")
            let text = Array("\"greeting\" = \"hello\";\n".utf16)
            let bytes: [UInt8] = [0xFF, 0xFE] + text.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            try Data(bytes).write(to: repo.root.appendingPathComponent("Localizable.strings"))
            try repo.commit("one")
            return repo
        }
        let cases: [(String, () throws -> RevisionTestRepository)] = [
            (
                "filtered, touched",
                {
                    let repo = try filtered(driver: true); try touch(repo, "a.txt"); return repo
                }
            ),
            (
                "filtered, racily clean (the index older than its files)",
                {
                    let repo = try filtered(driver: true); try touch(repo, ".git/index"); return repo
                }
            ),
            (
                "filtered, changed",
                {
                    let repo = try filtered(driver: true); try repo.write("a.txt", "changed\n"); return repo
                }
            ),
            (
                "filtered and another file changed",
                {
                    let repo = try filtered(driver: true); try touch(repo, "a.txt");
                    try repo.write("b.txt", "changed\n"); return repo
                }
            ),
            (
                "a filter attribute with no driver configured, touched",
                {
                    let repo = try filtered(driver: false); try touch(repo, "a.txt"); return repo
                }
            ),
            (
                "working-tree-encoding, touched",
                {
                    let repo = try encoded(); try touch(repo, "Localizable.strings"); return repo
                }
            ),
            (
                "working-tree-encoding, changed",
                {
                    let repo = try encoded()
                    try Data([0xFF, 0xFE, 0x78, 0x00, 0x0A, 0x00]).write(
                        to: repo.root.appendingPathComponent("Localizable.strings"))
                    return repo
                }
            ),
        ]
        var gitSaid: Set<String> = []
        for (name, make) in cases {
            let repo = try make()
            let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
            let ours = try context.render("{dirty}")
            let git = try repo.gitAnswers()[.dirty]!
            XCTAssertEqual(ours, git, name)
            gitSaid.insert(git)
        }
        XCTAssertEqual(gitSaid, ["", "M"])
    }
}
