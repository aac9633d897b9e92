import CGit2
import Foundation
import ShipyardTestSupport
@testable import VersionStampKit
import XCTest

/// `WorkTreeStatCheck`, the quick proof that the work tree matches the index: it holds for a
/// settled checkout and declines every case where stat data cannot prove it, while `{dirty}`
/// stays git's answer either way (versionstamp is asked before git, whose `describe --dirty`
/// refreshes the index).
final class WorkTreeStatCheckTests: XCTestCase {
    private func proven(_ repo: RevisionTestRepository) throws -> Bool {
        try GitRepository(discoveringFrom: repo.root.path, environment: repo.environment).workTreeMatchesIndexByStat()
            != nil
    }

    private func assertDirtyMatchesGit(
        _ repo: RevisionTestRepository, _ expected: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let ours = try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}")
        XCTAssertEqual(ours, expected, "versionstamp", file: file, line: line)
        XCTAssertEqual(try repo.gitAnswers()[.dirty], expected, "git", file: file, line: line)
    }

    /// Sets `path`'s modification time to `seconds` after 1970 plus `nanoseconds`, not
    /// following a symbolic link.
    private func setModified(_ url: URL, seconds: Int, nanoseconds: Int) {
        setModificationTime(url.path, seconds: Int64(seconds), nanoseconds: Int64(nanoseconds), followingLinks: false)
    }

    /// The modification and change times `lstat` gives `path`.
    private func times(_ path: String) -> (modified: timespec, changed: timespec) {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0, path)
        #if canImport(Darwin)
        return (info.st_mtimespec, info.st_ctimespec)
        #else
        return (info.st_mtim, info.st_ctim)
        #endif
    }

    private var settled = 0
    /// An hour before the first settle: each settle goes a second further back from it.
    private lazy var settleBase = Int(Date().timeIntervalSince1970) - 3600

    /// What an index records once git has looked at a checkout: every tracked file last
    /// modified an hour ago, the index rewritten now. Each call moves the files to another
    /// whole second: git (built without nanosecond times) refreshes an entry only when a
    /// whole second differs, and the proof compares nanoseconds.
    private func settle(_ repo: RevisionTestRepository) throws {
        settled += 1
        let hourAgo = settleBase - settled
        for path in try repo.git("ls-files", "-z").split(separator: "\0") {
            let url = repo.root.appendingPathComponent(String(path))
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue } // deleted
            setModified(url, seconds: hourAgo, nanoseconds: 123_456_789)
        }
        // Exits 1 where an entry needs updating or merging: part of the state under test.
        _ = try repo.runGit(["update-index", "-q", "--refresh"], allowFailure: true)
    }

    /// A repository with nested directories, an executable, a symbolic link, an empty file and
    /// a name with spaces, quotes and non-ASCII letters.
    private func checkout() throws -> RevisionTestRepository {
        let repo = try RevisionTestRepository(self)
        try repo.write("top.txt", "top\n")
        try repo.write("lib/net/socket.c", "int socket;\n")
        try repo.write("lib/net/tls/cert.c", "int cert;\n")
        try repo.write("lib/core.c", "int core;\n")
        try repo.write("lib.txt", "beside lib/\n")
        try repo.write("empty.txt", "")
        try repo.write("dir with space/ünïcode \"quoted\" 豆腐.txt", "tofu\n")
        try repo.write("run.sh", "#!/bin/sh\n")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: repo.root.appendingPathComponent("run.sh").path)
        try FileManager.default.createSymbolicLink(
            atPath: repo.root.appendingPathComponent("link").path, withDestinationPath: "top.txt")
        try repo.git("add", "-A")
        try repo.git("commit", "-q", "-m", "files")
        try settle(repo)
        return repo
    }

    func testSettledCheckoutIsProven() throws {
        let repo = try checkout()
        XCTAssertTrue(try proven(repo))
        try assertDirtyMatchesGit(repo, "")
    }

    /// A change of content only the change time shows: same size, the old modification time
    /// put back to the nanosecond. git's own check, built without nanosecond times (Debian's),
    /// compares whole seconds and calls it clean within the second; the content says dirty.
    func testChangedFileWithOldModificationTimeIsNotProven() throws {
        let repo = try checkout()
        let socket = repo.root.appendingPathComponent("lib/net/socket.c")
        let before = times(socket.path).modified
        try repo.write("lib/net/socket.c", "int sockex;\n")
        setModified(socket, seconds: before.tv_sec, nanoseconds: before.tv_nsec)
        XCTAssertEqual(times(socket.path).modified.tv_nsec, before.tv_nsec)
        XCTAssertFalse(try proven(repo))
        XCTAssertNotEqual(
            try repo.git("hash-object", "lib/net/socket.c"), try repo.git("rev-parse", "HEAD:lib/net/socket.c"))
        XCTAssertEqual(
            try VersionContext.load(repository: repo.root.path, environment: repo.environment).render("{dirty}"), "M")
    }

    func testMissingFileIsNotProven() throws {
        let repo = try checkout()
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("lib/core.c"))
        XCTAssertFalse(try proven(repo))
        try assertDirtyMatchesGit(repo, "M")
    }

    /// An entry modified no earlier than the index was written is racily clean: its stat data
    /// matches, yet a change within the same timestamp tick would not show in it.
    func testRacilyCleanEntryIsNotProven() throws {
        let repo = try checkout()
        let modified = times(repo.root.appendingPathComponent("top.txt").path).modified
        setModified(
            repo.root.appendingPathComponent(".git/index"), seconds: modified.tv_sec, nanoseconds: modified.tv_nsec)
        XCTAssertFalse(try proven(repo))
        try assertDirtyMatchesGit(repo, "")
    }

    /// git writes size 0 for a racily clean entry ("smudges" it) so that its content is
    /// compared later: an empty file whose stat data matches such an entry is still a change
    /// (libgit2 1.5's status calls it unchanged; `hasTrackedChanges` corrects that).
    func testSmudgedEntryIsNotProven() throws {
        let repo = try checkout()
        let path = repo.root.appendingPathComponent("top.txt").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        setModified(URL(fileURLWithPath: path), seconds: Int(Date().timeIntervalSince1970) - 3600, nanoseconds: 0)
        // The entry keeps HEAD's blob ("top\n") with the emptied file's stat data, as git
        // leaves a smudged entry.
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0)
        var index: OpaquePointer?
        XCTAssertEqual(git_index_open(&index, repo.root.appendingPathComponent(".git/index").path), 0)
        defer { git_index_free(index) }
        var entry = try XCTUnwrap(git_index_get_bypath(index, "top.txt", 0)).pointee
        let (modified, changed) = times(path)
        entry.ctime = git_index_time(seconds: Int32(changed.tv_sec), nanoseconds: UInt32(changed.tv_nsec))
        entry.mtime = git_index_time(seconds: Int32(modified.tv_sec), nanoseconds: UInt32(modified.tv_nsec))
        entry.dev = UInt32(truncatingIfNeeded: info.st_dev)
        entry.ino = UInt32(truncatingIfNeeded: info.st_ino)
        entry.file_size = 0
        XCTAssertEqual(git_index_add(index, &entry), 0)
        XCTAssertEqual(git_index_write(index), 0)
        XCTAssertFalse(try proven(repo))
        try assertDirtyMatchesGit(repo, "M")
    }

    /// A leading directory replaced by a symbolic link to where it went: the files are found
    /// through it with their old stat data, yet git reports them deleted.
    func testSymbolicLinkInLeadingPathIsNotProven() throws {
        let repo = try checkout()
        try FileManager.default.moveItem(
            at: repo.root.appendingPathComponent("lib"), to: repo.root.appendingPathComponent("moved"))
        try FileManager.default.createSymbolicLink(
            atPath: repo.root.appendingPathComponent("lib").path, withDestinationPath: "moved")
        XCTAssertFalse(try proven(repo))
        try assertDirtyMatchesGit(repo, "M")
    }

    /// The index's cache tree names the tree the index holds while it is valid; `{dirty}` then
    /// compares it with HEAD's tree instead of the entries, and an index holding another tree
    /// (read from an older commit, or left by `reset --soft`) is a change.
    func testCacheTreeStandsForTheIndex() throws {
        let repo = try checkout()
        let cachedTree = {
            try GitRepository(discoveringFrom: repo.root.path, environment: repo.environment)
                .workTreeMatchesIndexByStat()?.cachedTree?.hex
        }
        XCTAssertEqual(try cachedTree(), try repo.git("rev-parse", "HEAD^{tree}"))
        try assertDirtyMatchesGit(repo, "")
        // A change staged: the cache tree's root is invalidated, and the index is compared.
        try repo.write("top.txt", "staged\n")
        try repo.git("add", "top.txt")
        try settle(repo)
        XCTAssertTrue(try proven(repo))
        XCTAssertNil(try cachedTree())
        try assertDirtyMatchesGit(repo, "M")
        try repo.git("commit", "-q", "-m", "second")
        try settle(repo)
        XCTAssertEqual(try cachedTree(), try repo.git("rev-parse", "HEAD^{tree}"))
        try assertDirtyMatchesGit(repo, "")
        // The first commit's tree read into the index and checked out: a valid cache tree
        // that is not HEAD's.
        try repo.git("read-tree", "HEAD~1")
        try repo.git("checkout-index", "-f", "-a")
        try settle(repo)
        XCTAssertEqual(try cachedTree(), try repo.git("rev-parse", "HEAD~1^{tree}"))
        try assertDirtyMatchesGit(repo, "M")
        try repo.git("reset", "-q", "--hard")
        try repo.git("reset", "-q", "--soft", "HEAD~1")
        try settle(repo)
        XCTAssertTrue(try proven(repo))
        try assertDirtyMatchesGit(repo, "M")
    }

    /// Skip-worktree entries (sparse checkouts) are not looked at, present or not.
    func testSkipWorktreeEntriesAreSkipped() throws {
        let repo = try checkout()
        try repo.git("update-index", "--skip-worktree", "lib/core.c")
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("lib/core.c"))
        XCTAssertTrue(try proven(repo))
        try assertDirtyMatchesGit(repo, "")
    }

    /// Intent-to-add entries and conflicts are left to the full status, even where their
    /// stat data matches the file (as a conflict recorded by a tool other than git may).
    func testIntentToAddAndConflictsAreNotProven() throws {
        let repo = try checkout()
        try repo.write("new.txt", "new\n")
        try repo.git("add", "-N", "new.txt")
        try settle(repo)
        XCTAssertFalse(try proven(repo))
        try repo.git("rm", "-q", "--cached", "new.txt")
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("new.txt"))
        try settle(repo)
        XCTAssertTrue(try proven(repo))
        var index: OpaquePointer?
        XCTAssertEqual(git_index_open(&index, repo.root.appendingPathComponent(".git/index").path), 0)
        defer { git_index_free(index) }
        var entry = try XCTUnwrap(git_index_get_bypath(index, "top.txt", 0)).pointee
        XCTAssertEqual(git_index_conflict_add(index, &entry, &entry, &entry), 0)
        XCTAssertEqual(git_index_write(index), 0)
        XCTAssertFalse(try proven(repo))
    }

    /// Enough files for several threads: every part of the index is checked.
    func testEveryThreadsShareIsChecked() throws {
        let repo = try RevisionTestRepository(self)
        for directory in 0..<30 {
            for file in 0..<50 { try repo.write("d\(directory)/f\(file).txt", "\(directory).\(file)\n") }
        }
        try repo.git("add", "-A")
        try repo.git("commit", "-q", "-m", "many")
        try settle(repo)
        XCTAssertTrue(try proven(repo))
        try repo.write("d29/f49.txt", "29.4X\n")
        XCTAssertFalse(try proven(repo))
        try assertDirtyMatchesGit(repo, "M")
    }

    /// Seeded random edits, touches, mode changes, deletions, stages, commits and resets of a
    /// checkout, half of them after a settle: after each, `{dirty}` equals git's, whether the
    /// proof held or not.
    func testRandomWorkTreeChangesMatchGit() throws {
        let repo = try checkout()
        var random = SeededGenerator(seed: 19)
        let files = [
            "top.txt", "lib/net/socket.c", "lib/net/tls/cert.c", "lib/core.c", "lib.txt", "empty.txt", "run.sh",
        ]
        var provenSteps = 0, dirtySteps = 0
        for step in 0..<48 {
            let file = files[Int.random(in: 0..<files.count, using: &random)]
            let path = repo.root.appendingPathComponent(file).path
            // Half the steps start from a settled index, where the proof can hold.
            if Bool.random(using: &random) { try settle(repo) }
            let exists = FileManager.default.fileExists(atPath: path)
            switch Int.random(in: 0..<9, using: &random) {
            // Rewritten in place (same inode); half the time with the same size, so that only
            // the file's times show the change.
            case 0, 1:
                var bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
                if !bytes.isEmpty, Bool.random(using: &random) {
                    bytes[0] = bytes[0] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                } else {
                    bytes = Array((Bool.random(using: &random) ? "edit \(step)\n" : "").utf8)
                }
                try repo.write(file, String(decoding: bytes, as: UTF8.self))
            case 2 where exists: try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
            case 3 where exists:
                let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o644
                try FileManager.default.setAttributes([.posixPermissions: mode ^ 0o111], ofItemAtPath: path)
            case 4 where exists: try FileManager.default.removeItem(atPath: path)
            case 5: try repo.git("add", "-A")
            case 6: _ = try repo.runGit(["commit", "-q", "-am", "step \(step)"], allowFailure: true)
            case 7: try repo.git("reset", "-q", "--hard")
            default: try settle(repo)
            }
            if try proven(repo) { provenSteps += 1 }
            let ours = try VersionContext.load(repository: repo.root.path, environment: repo.environment).render(
                "{dirty}")
            XCTAssertEqual(ours, try repo.gitAnswers()[.dirty], "step \(step)")
            if ours == "M" { dirtySteps += 1 }
        }
        // Both answers, and the proof as well as the full status, were exercised.
        XCTAssertGreaterThan(provenSteps, 4)
        XCTAssertGreaterThan(dirtySteps, 4)
        XCTAssertLessThan(dirtySteps, 44)
    }
}
