import Foundation
import VersionStampKit
import XCTest

/// `{branch}` equals `git rev-parse --abbrev-ref HEAD` when names collide (strict
/// shortening under `core.warnAmbiguousRefs`, which is on by default).
final class RefAbbreviationTests: XCTestCase {
    private func assertBranchMatchesGit(_ repo: RevisionTestRepository, _ label: String,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let context = try VersionContext.load(repository: repo.root.path, environment: repo.environment)
        XCTAssertEqual(try context.render("{branch}"), try repo.git("rev-parse", "--abbrev-ref", "HEAD"), label,
                       file: file, line: line)
    }

    func testCollidingNames() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        let head = try repo.git("rev-parse", "HEAD")
        // Remote-tracking refs and tags that collide with the local branches below.
        for ref in ["refs/remotes/origin/main", "refs/remotes/upstream/HEAD", "refs/tags/release",
                    "refs/remotes/heads/x", "refs/tags/heads/y", "refs/remotes/tags/v1"] {
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
