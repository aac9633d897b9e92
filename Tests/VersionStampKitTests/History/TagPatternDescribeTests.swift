import Foundation
import VersionStampKit
import XCTest

/// `{tag}`, `{distance}` and `{describe}` with a tag pattern equal
/// `git describe --tags --long --always --dirty --match GLOB` (and `--first-parent`).
final class TagPatternDescribeTests: XCTestCase {
    static let patterns: [String?] = [nil, "v*", "v[0-9]*", "release-*", "docs-*", "*rc*", "team/*", "*/v*", "nomatch"]

    func testTagFamiliesAndPrereleases() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a", file: "app/a.txt")
        try repo.git("tag", "-a", "v1.2.3", "-m", "release")
        try repo.commit("b", file: "docs/b.txt")
        try repo.git("tag", "docs-1")
        try repo.commit("c", file: "app/c.txt")
        try repo.git("tag", "release-2.1-rc1")
        try repo.git("tag", "-a", "team/v2.0.0-beta.1", "-m", "beta") // '*' matches '/' as in git
        try repo.git("checkout", "-q", "-b", "side")
        try repo.commit("d", file: "lib/d.txt")
        try repo.git("tag", "-a", "v2.0.0", "-m", "two")
        try repo.commit("e", file: "lib/e.txt")
        try repo.git("checkout", "-q", "main")
        try repo.commit("f", file: "docs/f.txt")
        try repo.git("tag", "docs-2")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
        try repo.commit("g", file: "app/g.txt")
        for pattern in Self.patterns {
            for firstParent in [false, true] {
                for paths in [[], ["app"], ["lib"]] {
                    try repo.assertHistoryMatchesGit(
                        RevisionQuery(tagPattern: pattern, firstParent: firstParent, paths: paths))
                }
            }
        }
        // A tag on HEAD wins at distance 0 only when it matches.
        try repo.git("tag", "docs-3")
        for pattern in Self.patterns { try repo.assertHistoryMatchesGit(RevisionQuery(tagPattern: pattern)) }
        // Dirty work tree and detached HEAD.
        try repo.git("checkout", "-q", "--detach", "HEAD~1")
        try repo.write("app/a.txt", "changed\n")
        for pattern in Self.patterns { try repo.assertHistoryMatchesGit(RevisionQuery(tagPattern: pattern)) }
        XCTAssertNil(try repo.versionstamp(RevisionQuery(tagPattern: "nomatch")).tag)
    }

    /// An annotated tag whose reference was renamed: describe prints the tag object's name
    /// but matches the pattern against the reference name.
    func testAnnotatedTagKnownUnderAnotherName() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("a")
        try repo.git("tag", "-a", "inner-1.0", "-m", "inner")
        let object = try repo.git("rev-parse", "refs/tags/inner-1.0")
        try repo.git("update-ref", "refs/tags/v1.0", object)
        try repo.git("tag", "-d", "inner-1.0")
        try repo.commit("b")
        for pattern in [nil, "v*", "inner*"] { try repo.assertHistoryMatchesGit(RevisionQuery(tagPattern: pattern)) }
    }

    /// More than ten candidate tags: git gives up after ten and finishes the best one's depth.
    func testManyCandidates() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("base")
        for i in 0..<14 {
            try repo.git("checkout", "-q", "-b", "t\(i)", "main")
            try repo.commit("t\(i)", file: "t\(i).txt")
            try repo.git("tag", i % 3 == 0 ? "v0.\(i).0" : "rc-\(i)")
            try repo.git("checkout", "-q", "main")
            try repo.git("merge", "-q", "--no-ff", "-m", "merge t\(i)", "t\(i)")
        }
        for pattern in [nil, "v*", "rc-*"] {
            for firstParent in [false, true] {
                try repo.assertHistoryMatchesGit(RevisionQuery(tagPattern: pattern, firstParent: firstParent))
            }
        }
    }

    /// `--first-parent` picks the tag along first parents, as `git describe --first-parent`
    /// does (the right tag for a release branch that merges feature branches carrying tags of
    /// their own): a tag reached only through a merge's second parent is passed over, though
    /// it is nearer, and `{distance}` counts first parents from the mainline tag.
    func testFirstParentPicksTheTagAlongFirstParents() throws {
        let repo = try RevisionTestRepository(self)
        try repo.commit("base")
        try repo.git("tag", "-a", "v1.0", "-m", "release")
        try repo.commit("main-1")
        try repo.git("checkout", "-q", "-b", "feature")
        try repo.commit("feature-1")
        try repo.git("tag", "feature-beta")
        try repo.git("checkout", "-q", "main")
        try repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
        try repo.commit("main-2")
        let plain = try repo.gitDescribe(RevisionQuery())
        let firstParent = try repo.gitDescribe(RevisionQuery(firstParent: true))
        XCTAssertTrue(
            plain.hasPrefix("feature-beta-") && firstParent.hasPrefix("v1.0-"),
            "the history must give the two describes different tags: \(plain), \(firstParent)")
        for pattern in [nil, "v*", "feature-*"] {
            for firstParent in [false, true] {
                try repo.assertHistoryMatchesGit(RevisionQuery(tagPattern: pattern, firstParent: firstParent))
            }
        }
        let info = try repo.versionstamp(RevisionQuery(firstParent: true))
        XCTAssertEqual(info.tag, "v1.0")
        XCTAssertEqual(String(info.distance), try repo.git("rev-list", "--count", "--first-parent", "v1.0..HEAD"))
    }
}
