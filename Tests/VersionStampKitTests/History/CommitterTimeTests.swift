import Foundation
@testable import VersionStampKit
import XCTest

/// A commit dated before 1970 stores a signed time (`-315619200`), which git 2.39 does not
/// read: `git log -1 --format=%ct` and `%cd` print nothing. `{date}` and `{timestamp}` must
/// then refuse, from libgit2's reading and from the history reader's alike, never print a number.
final class CommitterTimeTests: XCTestCase {
    /// A repository whose HEAD is a commit with `author` and `committer` times as given.
    private func repository(authorTime: String, committerTime: String) throws -> RevisionTestRepository {
        let repo = try RevisionTestRepository(self)
        try repo.commit("one", file: "app/one.txt")
        let tree = try repo.git("write-tree")
        let parent = try repo.git("rev-parse", "HEAD")
        let object =
            "tree \(tree)\nparent \(parent)\nauthor A <a@example.com> \(authorTime) +0000\n"
            + "committer A <a@example.com> \(committerTime) +0000\n\nbefore 1970\n"
        let commit = try repo.git("hash-object", "-t", "commit", "-w", "--stdin", stdin: Data(object.utf8))
        try repo.git("update-ref", "refs/heads/main", commit)
        // The oracle: git prints no committer time or date for it.
        XCTAssertEqual(try repo.git("log", "-1", "--format=%ct"), "")
        XCTAssertEqual(try repo.git("log", "-1", "--format=%cd", "--date=format:%Y%m%d"), "")
        return repo
    }

    private func assertRefused(_ repo: RevisionTestRepository, line: UInt = #line) throws {
        for token in ["{date}", "{timestamp}", "{count}.{date}"] {
            let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
            XCTAssertThrowsError(try context.render(token), token, line: line) { error in
                let failure = error as? VersionStampError
                XCTAssertEqual(failure?.code, .gitFailure, "\(error)", line: line)
                XCTAssertTrue(failure?.message.contains("before 1970") ?? false, "\(error)", line: line)
            }
        }
        // The other tokens are git's still.
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        XCTAssertEqual(
            try context.render("{count} {sha}"),
            try repo.git("rev-list", "--count", "HEAD") + " " + repo.git("rev-parse", "HEAD"), line: line)
    }

    /// libgit2 reads the commit (its time, negative, is then not taken).
    func testDateBefore1970ReadByLibgit2IsRefused() throws {
        let repo = try repository(authorTime: "-315619200", committerTime: "-315619200")
        let reader = try RevisionReader(discoveringFrom: repo.root.path, environment: repo.environment, caching: .off)
        XCTAssertTrue(reader.repository.canParseCommit(reader.head), "libgit2 must read this commit")
        XCTAssertEqual(try reader.repository.commitTime(reader.head), -315_619_200)
        try assertRefused(repo)
    }

    /// libgit2 rejects the commit (its author time is beyond its range), so the history
    /// reader reads the committer time.
    func testDateBefore1970ReadByTheHistoryReaderIsRefused() throws {
        let repo = try repository(authorTime: "18446744073709549816", committerTime: "-315619200")
        let reader = try RevisionReader(discoveringFrom: repo.root.path, environment: repo.environment, caching: .off)
        XCTAssertFalse(reader.repository.canParseCommit(reader.head), "libgit2 must reject this commit")
        try assertRefused(repo)
    }

    /// The history reader's own reading of the negative time, whichever path the reader takes.
    func testHistoryReaderFindsNoPrintedTimeBefore1970() throws {
        let repo = try repository(authorTime: "-315619200", committerTime: "-315619200")
        let reader = try RevisionReader(discoveringFrom: repo.root.path, environment: repo.environment, caching: .off)
        let engine = HistoryEngine(
            repository: reader.repository, query: RevisionQuery(), givenPaths: [],
            head: ObjectID(reader.head), cache: nil)
        XCTAssertNil(try engine.headCommit().time)
    }

    /// git's reading of a committer line, field by field.
    func testPrintedTimeFollowsGitsIdentParsing() {
        func printed(_ header: String) -> UInt64? {
            Array(("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" + header + "\nmessage\n").utf8)
                .withUnsafeBufferPointer { CommitterTime.printed(inCommit: $0) }
        }
        XCTAssertEqual(printed("committer A <a@b> 1700000000 +0100\n"), 1_700_000_000)
        XCTAssertEqual(printed("committer A <a@b>  \t1700000000\n"), 1_700_000_000)
        XCTAssertEqual(printed("committer A <a@b> 18446744073709549816 +0100\n"), 18_446_744_073_709_549_816)
        XCTAssertEqual(printed("committer A <a@b> 1 +0000\ncommitter B <b@c> 2 +0000\n"), 2)
        XCTAssertNil(printed("committer A <a@b> -315619200 +0000\n"))
        XCTAssertNil(printed("committer A <a@b> +315619200 +0000\n"))
        XCTAssertNil(printed("committer A a@b 315619200 +0000\n"))
        XCTAssertNil(printed("author A <a@b> 315619200 +0000\n"))
        XCTAssertNil(printed("committer A <a@b> 18446744073709551616 +0000\n"))
    }
}
