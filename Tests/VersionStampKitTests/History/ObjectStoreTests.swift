import CGit2
import Foundation
@testable import VersionStampKit
import XCTest

/// The engine's own pack reader (index lookup, whole and partial inflation, offset and
/// reference deltas) gives the same bytes as libgit2 for every commit and tree, however
/// the repository is packed; and history answers stay git's after repacking.
final class ObjectStoreTests: XCTestCase {
    private func assertStoreMatchesLibgit2(
        _ repo: RevisionTestRepository, _ label: String, minimumDeltas: Int = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let repository = try GitRepository(discoveringFrom: repo.root.path, environment: repo.environment)
        let store = try ObjectStore(repository: repository)
        let listing = try repo.git("cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)")
        var checked = 0
        for row in listing.split(separator: "\n") {
            let fields = row.split(separator: " ")
            guard let kind = fields.first == "commit" ? ObjectKind.commit : (fields.first == "tree" ? .tree : nil),
                var oid = ObjectID(hex: fields[1])?.gitOID
            else { continue }
            var object: OpaquePointer?
            XCTAssertEqual(git_object_lookup(&object, repository.handle, &oid, GIT_OBJECT_ANY), 0)
            var raw: OpaquePointer?
            var odb: OpaquePointer?
            git_repository_odb(&odb, repository.handle)
            git_odb_read(&raw, odb, &oid)
            let expected = Array(
                UnsafeBufferPointer(
                    start: git_odb_object_data(raw)!.assumingMemoryBound(to: UInt8.self),
                    count: git_odb_object_size(raw)))
            git_odb_object_free(raw)
            git_odb_free(odb)
            git_object_free(object)
            let whole = try store.withObject(ObjectID(oid), kind) { bytes, isWhole in (Array(bytes), isWhole) }
            XCTAssertEqual(whole.0, expected, "\(label) \(fields[1])", file: file, line: line)
            XCTAssertTrue(whole.1)
            if kind == .commit {
                let start = try store.withObject(ObjectID(oid), kind, limit: 60) { bytes, _ in Array(bytes) }
                XCTAssertEqual(Array(expected.prefix(start.count)), start, file: file, line: line)
                XCTAssertGreaterThanOrEqual(start.count, min(60, expected.count), file: file, line: line)
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100, label, file: file, line: line)
        if minimumDeltas > 0 {
            XCTAssertGreaterThanOrEqual(
                store.deltaReads, minimumDeltas, "\(label): deltas rebuilt by the engine", file: file, line: line)
        }
    }

    func testPackedObjectsReadAsLibgit2ReadsThem() throws {
        let repo = try RevisionTestRepository(self)
        try RandomHistory.build(in: repo, seed: 7, commits: 120)
        try assertStoreMatchesLibgit2(repo, "fast-import pack")
        try repo.git("repack", "-adfq", "--depth=50", "--window=50")
        try assertStoreMatchesLibgit2(repo, "offset deltas", minimumDeltas: 50)
        try repo.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=20")
        try assertStoreMatchesLibgit2(repo, "reference deltas", minimumDeltas: 50)
        for query in [
            RevisionQuery(paths: ["lib"]), RevisionQuery(tagPattern: "v*", firstParent: true, paths: ["docs"]),
        ] {
            try repo.assertHistoryMatchesGit(query, "repacked")
        }
        // Loose objects beside the pack (read through libgit2).
        try repo.commit("loose", file: "lib/core/loose.txt")
        try assertStoreMatchesLibgit2(repo, "pack and loose objects")
        try repo.assertHistoryMatchesGit(RevisionQuery(paths: ["lib"]), "loose")
    }

    /// A clone made with `--shared` or `--reference` keeps its history in another object
    /// directory: the engine reads those packs itself (no object goes through libgit2, which is
    /// what made a cold count there slower than git's), alternates of alternates included.
    func testAlternateStoresAreReadFromTheirPacks() throws {
        let origin = try RevisionTestRepository(self)
        try RandomHistory.build(in: origin, seed: 11, commits: 80)
        try origin.git("repack", "-adq")
        let base = origin.root.deletingLastPathComponent()
        let shared = base.appendingPathComponent("shared"), reference = base.appendingPathComponent("reference")
        try origin.git("clone", "-q", "--shared", origin.root.path, shared.path)
        try origin.git("clone", "-q", "--reference", shared.path, "file://" + origin.root.path, reference.path)
        for clone in [shared, reference] {
            let repository = try GitRepository(discoveringFrom: clone.path, environment: origin.environment)
            let store = try ObjectStore(repository: repository)
            let graph = CommitGraph(store: store)
            let count = try graph.countReachable(from: ObjectID(try repository.headCommitID()))
            XCTAssertEqual(
                String(count), try origin.git("rev-list", "--count", "HEAD", in: clone), clone.lastPathComponent)
            XCTAssertEqual(
                store.libraryReads, 0, "\(clone.lastPathComponent): every commit read from the alternate's pack")
            try origin.assertTokensMatchGit(in: clone)
        }
    }
}
