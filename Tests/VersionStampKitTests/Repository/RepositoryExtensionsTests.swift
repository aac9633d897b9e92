import Foundation
@testable import VersionStampKit
import XCTest

/// The unsupported extension is named from the repository's configuration, not from the
/// wording of libgit2's refusal.
final class RepositoryExtensionsTests: XCTestCase {
    private func firstUnsupported(from start: String) -> String? {
        RepositoryExtensions.firstUnsupported(gitDirectory: nil, start: start, ceilingDirectories: nil)
    }

    func testLibgit2ReadsNoop() {
        XCTAssertTrue(RepositoryExtensions.supportedByLibgit2().contains("noop"))
    }

    /// A supported extension is passed over; from a linked worktree, the common dir's config is read.
    func testFirstUnsupportedExtensionIsFoundInTheCommonDirectory() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        XCTAssertNil(firstUnsupported(from: repo.root.path))
        try repo.git("config", "core.repositoryformatversion", "1")
        try repo.git("config", "extensions.noop", "true")
        XCTAssertNil(firstUnsupported(from: repo.root.path))
        let linked = repo.root.deletingLastPathComponent().appendingPathComponent("linked")
        try repo.git("worktree", "add", "-q", linked.path)
        try repo.git("config", "extensions.partialClone", "origin")
        for start in [repo.root.path, linked.path] {
            XCTAssertEqual(firstUnsupported(from: start), "extensions.partialclone", start)
        }
        let gitDirectory = try repo.git("-C", linked.path, "rev-parse", "--absolute-git-dir")
        XCTAssertEqual(
            RepositoryExtensions.firstUnsupported(
                gitDirectory: gitDirectory, start: "/",
                ceilingDirectories: nil), "extensions.partialclone")
        // A repository of format version 0 has its extensions ignored, by libgit2 as by git.
        try repo.git("config", "core.repositoryformatversion", "0")
        XCTAssertNil(firstUnsupported(from: repo.root.path))
    }
}
