import Foundation
@testable import VersionStampKit
import XCTest

/// git's approximate object count (packed objects only, multi-pack-index aware), which sets
/// the starting length of `{short}`, compared with git's own figures.
final class RevisionAbbreviationTests: XCTestCase {
    /// A fast-import stream of `count` small blobs (`tag` keeps ids distinct between streams) and one commit.
    private func blobStream(_ count: Int, tag: String, branch: String) -> Data {
        var stream = ""
        for i in 0..<count {
            let content = "\(tag)-\(i)\n"
            stream += "blob\ndata \(content.utf8.count)\n\(content)\n"
        }
        let length = tag.utf8.count
        stream += "commit refs/heads/\(branch)\ncommitter T <t@example.com> 1700000000 +0000\ndata \(length)\n\(tag)\n"
        stream += "M 644 inline \(tag).txt\ndata \(length)\n\(tag)\n\ndone\n"
        return Data(stream.utf8)
    }

    /// git's approximate count for the object directory `objects` and its alternates.
    private func approximateCount(_ objects: String) -> Int {
        ShortIdAbbreviation.approximateObjectCount(
            objectDirectories: RepositoryEnvironment.objectDirectories(primary: objects))
    }

    private func inPackCount(_ repo: RevisionTestRepository) throws -> Int {
        let lines = try repo.git("count-objects", "-v").components(separatedBy: "\n")
        let line = try XCTUnwrap(lines.first { $0.hasPrefix("in-pack: ") })
        return try XCTUnwrap(Int(line.dropFirst("in-pack: ".count)))
    }

    func testPackIndexesAreCountedOnceEvenWithAMultiPackIndex() throws {
        let repo = try RevisionTestRepository(self)
        try repo.git("fast-import", "--quiet", "--done", stdin: blobStream(300, tag: "one", branch: "main"))
        try repo.git("fast-import", "--quiet", "--done", stdin: blobStream(200, tag: "two", branch: "other"))
        let objects = repo.root.appendingPathComponent(".git/objects").path
        let inPack = try inPackCount(repo)
        XCTAssertEqual(approximateCount(objects), inPack)
        try repo.git("multi-pack-index", "write")
        let midx = try XCTUnwrap(ShortIdAbbreviation.readMultiPackIndex(objects + "/pack/multi-pack-index"))
        let indexes = try FileManager.default.contentsOfDirectory(atPath: objects + "/pack").filter {
            $0.hasSuffix(".idx")
        }
        XCTAssertEqual(midx.packIndexNames, Set(indexes))
        XCTAssertEqual(midx.objectCount, inPack)
        XCTAssertEqual(
            approximateCount(objects), inPack,
            "packs covered by the multi-pack-index are not counted twice")
        // A third pack outside the multi-pack-index is added on top.
        try repo.git("fast-import", "--quiet", "--done", stdin: blobStream(100, tag: "three", branch: "third"))
        XCTAssertEqual(approximateCount(objects), try inPackCount(repo))
    }

    /// Loose objects do not count (git's `repo_approximate_object_count` reads pack indexes only).
    /// 16,384 loose objects would show it through `git rev-parse --short`, but writing them
    /// takes seconds here; compare with git's own in-pack figure instead.
    func testLooseObjectsDoNotCount() throws {
        let repo = try RevisionTestRepository(self)
        for i in 1...3 { try repo.commit("loose-\(i)") }
        let objects = repo.root.appendingPathComponent(".git/objects").path
        XCTAssertEqual(try inPackCount(repo), 0)
        XCTAssertEqual(approximateCount(objects), 0)
        try repo.git("repack", "-q", "-a", "-d")
        try repo.commit("loose-4")
        XCTAssertGreaterThan(try inPackCount(repo), 0)
        XCTAssertEqual(approximateCount(objects), try inPackCount(repo))
    }

    func testAlternatesAreCounted() throws {
        let origin = try RevisionTestRepository(self)
        try origin.git("fast-import", "--quiet", "--done", stdin: blobStream(50, tag: "alt", branch: "main"))
        let clone = origin.root.deletingLastPathComponent().appendingPathComponent("shared-clone")
        try origin.git("clone", "-q", "--shared", origin.root.path, clone.path)
        let objects = clone.appendingPathComponent(".git/objects").path
        XCTAssertEqual(approximateCount(objects), try inPackCount(origin))
        try origin.assertTokensMatchGit(in: clone)
    }
}
