import Foundation
import VersionStampKit
import XCTest

/// `{count}` and `{distance}` with `--first-parent` and `--path` equal
/// `git rev-list --count [--first-parent] HEAD [-- PATH...]`, history simplification included.
final class HistoryCountTests: XCTestCase {
    /// Merges that bring changes under a path, merges TREESAME to one side, an octopus merge,
    /// a second root commit, a path that is a file, a path that disappears and comes back.
    func testPathLimitedCountsAcrossMerges() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("root", file: "README")
        try repo.commit("app-1", file: "app/main.txt")
        try repo.commit("lib-1", file: "lib/core/a.txt")
        try repo.git("checkout", "-q", "-b", "topic")
        try repo.commit("topic-lib", file: "lib/core/b.txt")
        try repo.commit("topic-docs", file: "docs/guide.txt")
        try repo.git("checkout", "-q", "main")
        try repo.commit("main-app", file: "app/other.txt")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge topic", "topic")
        // A side branch that changes docs only: its merge is TREESAME to main for lib/ and app/.
        try repo.git("checkout", "-q", "-b", "docs-only")
        try repo.commit("docs-2", file: "docs/more.txt")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge docs", "docs-only")
        // The same change on two branches: the merge is TREESAME to both parents.
        try repo.git("checkout", "-q", "-b", "same-a")
        try repo.commit("same", file: "lib/core/same.txt")
        try repo.git("checkout", "-q", "main")
        try repo.git("checkout", "-q", "-b", "same-b")
        try repo.commit("same", file: "lib/core/same.txt")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge same-a", "same-a")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge same-b", "same-b")
        // An octopus merge of three side branches touching different directories.
        for (branch, file) in [("o1", "app/o1.txt"), ("o2", "lib/net/o2.txt"), ("o3", "tools/o3.txt")] {
            try repo.git("checkout", "-q", "-b", branch, "main")
            try repo.commit(branch, file: file)
        }
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "octopus", "o1", "o2", "o3")
        // A second root: an unrelated history merged in.
        try repo.git("checkout", "-q", "--orphan", "imported")
        try repo.git("rm", "-rqf", ".")
        try repo.commit("imported-root", file: "vendor/lib.txt")
        try repo.commit("imported-2", file: "lib/core/imported.txt")
        try repo.git("checkout", "-q", "-f", "main")
        try repo.git("merge", "-q", "--no-ff", "--allow-unrelated-histories", "-m", "import", "imported")
        try repo.git("rm", "-q", "app/main.txt")
        try repo.git("commit", "-q", "-m", "remove app/main.txt")
        try repo.commit("app-main-back", file: "app/main.txt")
        try repo.git("tag", "-a", "v1.0.0", "-m", "one", "HEAD~4")
        let pathSets: [[String]] = [
            [], ["lib"], ["lib/core"], ["lib/net"], ["app"], ["docs"], ["vendor"], ["tools", "docs"],
            ["app/main.txt"], ["README"], ["."], ["missing"], ["lib/core/", "./app"],
        ]
        for paths in pathSets {
            for firstParent in [false, true] {
                try repo.assertHistoryMatchesGit(RevisionQuery(firstParent: firstParent, paths: paths))
            }
        }
    }

    /// Paths are relative to the repository root; one leading outside it is an error.
    func testPathOutsideTheRepositoryIsAnError() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "lib/a.txt")
        XCTAssertEqual(try repo.versionstamp(RevisionQuery(paths: ["lib/../lib/./"])).count, 1)
        XCTAssertEqual(try repo.versionstamp(RevisionQuery(paths: [repo.root.path + "/lib"])).count, 1)
        for outside in ["..", "lib/../../x", "/somewhere/else"] {
            XCTAssertThrowsError(try repo.versionstamp(RevisionQuery(paths: [outside]))) { error in
                XCTAssertTrue("\(error)".contains("outside the repository"), "\(error)")
            }
        }
        // git reads these as pathspec patterns or magic: refused, not counted differently.
        for pattern in ["lib/*", "l?b", "[l]ib", ":(exclude)lib", ":/lib"] {
            XCTAssertThrowsError(try repo.versionstamp(RevisionQuery(paths: [pattern]))) { error in
                XCTAssertTrue("\(error)".contains("pattern"), "\(error)")
            }
        }
    }

    /// A detached HEAD on a side branch, counted with and without first parents.
    func testDetachedHeadAndFirstParent() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "src/a.txt")
        try repo.git("tag", "v0.1.0")
        try repo.git("checkout", "-q", "-b", "side")
        try repo.commit("b", file: "src/b.txt")
        try repo.commit("c", file: "doc/c.txt")
        try repo.git("checkout", "-q", "main")
        try repo.commit("d", file: "doc/d.txt")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
        try repo.commit("e", file: "src/e.txt")
        for paths in [[], ["src"], ["doc"]] {
            try repo.assertHistoryMatchesGit(RevisionQuery(firstParent: true, paths: paths))
            try repo.assertHistoryMatchesGit(RevisionQuery(paths: paths))
        }
        try repo.git("checkout", "-q", "--detach", "HEAD~1^2")
        for paths in [[], ["src"], ["doc"]] {
            try repo.assertHistoryMatchesGit(RevisionQuery(firstParent: true, paths: paths))
        }
    }

    /// A path that changes type (file, directory, symbolic link, back), a mode change, an
    /// emptied directory and a submodule entry: git's tree diff sees each as a change.
    func testPathsChangingType() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("base", file: "other.txt")
        try repo.commit("file", file: "x")
        try repo.git("rm", "-q", "x")
        try repo.commit("dir", file: "x/inner.txt")
        try repo.git("rm", "-rq", "x")
        try FileManager.default.createSymbolicLink(
            atPath: repo.root.appendingPathComponent("x").path, withDestinationPath: "other.txt")
        try repo.git("add", "x")
        try repo.git("commit", "-q", "-m", "symlink")
        try repo.git("rm", "-q", "x")
        try repo.commit("file again", file: "x")
        try repo.git("update-index", "--chmod=+x", "x")
        try repo.git("commit", "-q", "-m", "executable")
        try repo.git("rm", "-qf", "x")
        try repo.git("commit", "-q", "-m", "gone")
        let sub = String(repeating: "c", count: 40)
        try repo.git("update-index", "--add", "--cacheinfo", "160000,\(sub),x")
        try repo.git("commit", "-q", "-m", "submodule")
        // The submodule's directory is missing: git's describe says -dirty; a clone leaves it empty.
        XCTAssertTrue(try repo.gitDescribe(RevisionQuery()).hasSuffix("-dirty"))
        try repo.assertHistoryMatchesGit(RevisionQuery(paths: ["x"]))
        try FileManager.default.createDirectory(
            at: repo.root.appendingPathComponent("x"), withIntermediateDirectories: false)
        for paths in [["x"], ["x/inner.txt"], ["other.txt", "x"]] {
            for firstParent in [false, true] {
                try repo.assertHistoryMatchesGit(RevisionQuery(firstParent: firstParent, paths: paths))
            }
        }
    }
}
