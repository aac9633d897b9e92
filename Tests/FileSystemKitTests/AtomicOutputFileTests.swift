@testable import FileSystemKit
import Foundation
import ShipyardTestSupport
import XCTest

/// The atomic output file another party writes: the temporary and its sidecar, commit and
/// discard, and the removal of what writers that are gone left, never of a running writer's.
final class AtomicOutputFileTests: XCTestCase {
    func testCommitMovesTheCompleteFileIntoPlaceAndLeavesNothingElse() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        let destination = try directory.write("out db.sqlite", "old").path
        let output = try AtomicOutputFile(destination: destination, tag: "dbgen", companionSuffixes: ["-journal"])
        let temporaryName = (output.temporaryPath as NSString).lastPathComponent
        XCTAssertTrue(temporaryName.hasPrefix(".out db.sqlite.dbgen-"), temporaryName)
        XCTAssertEqual(try names(in: directory), [temporaryName, temporaryName + ".lock", "out db.sqlite"].sorted())
        XCTAssertEqual(FileManager.default.contents(atPath: output.temporaryPath), Data(), "the temporary starts empty")
        XCTAssertEqual(permissions(output.temporaryPath), 0o666 & ~currentUmask())
        XCTAssertFalse(try anotherProcessCanLock(output.temporaryPath + ".lock"), "the sidecar is held")
        XCTAssertTrue(try anotherProcessCanLock(output.temporaryPath), "the temporary itself is never locked")

        try Data("new".utf8).write(to: URL(fileURLWithPath: output.temporaryPath))
        try Data("journal".utf8).write(to: URL(fileURLWithPath: output.temporaryPath + "-journal"))
        try output.commit()
        XCTAssertEqual(FileManager.default.contents(atPath: destination), Data("new".utf8))
        XCTAssertEqual(try names(in: directory), ["out db.sqlite"])
        try output.commit() // does nothing once committed
        output.discard()
        XCTAssertEqual(FileManager.default.contents(atPath: destination), Data("new".utf8))
    }

    #if os(Linux)
    /// The temporary stays open from creation (for ``AtomicOutputFile/startWriteback()``) until
    /// commit or discard, and not a moment longer: no descriptor is left behind either way, and
    /// starting writeback of a large temporary leaves its content exactly as written.
    func testTheTemporaryIsOpenUntilCommitOrDiscardAndWritebackLeavesItsContent() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        let destination = realPath(directory.url("out.sqlite").path)
        let output = try AtomicOutputFile(destination: destination, tag: "dbgen")
        let temporary = realPath(output.temporaryPath)
        XCTAssertEqual(openDescriptors(of: temporary), 1, "open for writeback")
        let contents = Data((0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try contents.write(to: URL(fileURLWithPath: output.temporaryPath))
        output.startWriteback()
        output.startWriteback() // within 50 ms of the first: only the clock is read
        try output.commit()
        XCTAssertEqual(openDescriptors(of: destination), 0, "closed by commit")
        XCTAssertEqual(FileManager.default.contents(atPath: destination), contents)
        output.startWriteback() // once committed: nothing

        let discarded = try AtomicOutputFile(destination: destination, tag: "dbgen")
        let discardedPath = realPath(discarded.temporaryPath)
        XCTAssertEqual(openDescriptors(of: discardedPath), 1)
        discarded.discard()
        XCTAssertEqual(
            openDescriptors(of: discardedPath) + openDescriptors(of: discardedPath + " (deleted)"), 0,
            "closed by discard")
        XCTAssertEqual(FileManager.default.contents(atPath: destination), contents)
    }

    private func realPath(_ path: String) -> String {
        let directory = URL(fileURLWithPath: (path as NSString).deletingLastPathComponent).resolvingSymlinksInPath()
            .path
        return directory + "/" + (path as NSString).lastPathComponent
    }

    /// How many of this process's descriptors are open on `path` (as `/proc/self/fd` names it).
    private func openDescriptors(of path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
        }.count
    }
    #endif

    func testDiscardRemovesTheTemporaryItsCompanionsAndItsSidecar() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        let destination = try directory.write("out.sqlite", "old").path
        let output = try AtomicOutputFile(
            destination: destination, tag: "dbgen", companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes)
        for suffix in ["", "-wal", "-shm"] {
            try Data("half".utf8).write(to: URL(fileURLWithPath: output.temporaryPath + suffix))
        }
        output.discard()
        XCTAssertEqual(try names(in: directory), ["out.sqlite"])
        XCTAssertEqual(FileManager.default.contents(atPath: destination), Data("old".utf8))
    }

    func testACommitThatCannotRenameLeavesTheDestinationAndRemovesTheTemporary() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        try directory.write("out.sqlite/keep", "kept")
        let output = try AtomicOutputFile(destination: directory.url("out.sqlite").path, tag: "dbgen")
        try Data("new".utf8).write(to: URL(fileURLWithPath: output.temporaryPath))
        XCTAssertThrowsError(try output.commit()) {
            XCTAssertEqual(($0 as? FileSystemError)?.operation, .rename, "\($0)")
            XCTAssertEqual(($0 as? FileSystemError)?.path, directory.url("out.sqlite").path)
        }
        XCTAssertEqual(try names(in: directory), ["out.sqlite"])
        XCTAssertEqual(FileManager.default.contents(atPath: directory.url("out.sqlite/keep").path), Data("kept".utf8))
    }

    func testAnOutputInAMissingDirectoryIsAnErrorNamingTheDestination() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        let destination = directory.url("missing/out.sqlite").path
        XCTAssertThrowsError(try AtomicOutputFile(destination: destination, tag: "dbgen")) {
            XCTAssertEqual($0 as? FileSystemError, FileSystemError(.createTemporary, path: destination, code: ENOENT))
        }
    }

    func testCopyingHashesWhatItCopies() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        var generator = SeededGenerator(seed: 11)
        let bytes = Data(
            (0..<(3 * ContentHash.chunkSize + 17)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let source = try directory.write("download.sqlite", bytes).path
        let output = try AtomicOutputFile(destination: directory.url("food.sqlite").path, tag: "update")
        try Data(repeating: 1, count: 5 * ContentHash.chunkSize).write(to: URL(fileURLWithPath: output.temporaryPath))
        XCTAssertEqual(try output.write(copying: source), try hashlibSHA256(source))
        XCTAssertEqual(
            FileManager.default.contents(atPath: output.temporaryPath), bytes, "replaces what the temporary held")
        XCTAssertThrowsError(try output.write(copying: directory.url("none").path)) {
            XCTAssertEqual(
                $0 as? FileSystemError, FileSystemError(.open, path: directory.url("none").path, code: ENOENT))
        }
        output.discard()
    }

    func testStaleTemporariesGoAndThoseOfRunningWritersStay() throws {
        let directory = try TemporaryDirectory("output file", removedAfter: self)
        let destination = try directory.write("out.sqlite", "db").path
        let companions = AtomicOutputFile.sqliteCompanionSuffixes
        // A writer of this process (another open file, so another lock owner) is running…
        let running = try AtomicOutputFile(destination: destination, tag: "dbgen", companionSuffixes: companions)
        let runningName = (running.temporaryPath as NSString).lastPathComponent
        // …and another process's, which is then killed.
        try directory.write(".out.sqlite.dbgen-Child1", "half")
        let child = try LockHolder(locking: directory.url(".out.sqlite.dbgen-Child1.lock").path, in: directory)
        // What kill -9 left: a temporary whose sidecar nobody holds, with a journal…
        for name in [".out.sqlite.dbgen-AbC123", ".out.sqlite.dbgen-AbC123.lock", ".out.sqlite.dbgen-AbC123-journal"] {
            try directory.write(name, "half")
        }
        // …a temporary with no sidecar at all, and a sidecar whose temporary is gone.
        try directory.write(".out.sqlite.dbgen-NoLock", "half")
        try directory.write(".out.sqlite.dbgen-Orphan.lock", "")
        // Not temporaries of this output and tag: kept whatever happens.
        let unrelated = [
            ".out.sqlite.dbgen-fingerprint", ".out.sqlite.dbgen-Short", ".out.sqlite.update-AbC123",
            ".other.sqlite.dbgen-AbC123", ".out.sqlite.dbgen-AbC123.bak",
        ]
        for name in unrelated { try directory.write(name, "keep") }

        AtomicOutputFile.removeStaleTemporaries(of: destination, tag: "dbgen", companionSuffixes: companions)
        let live = [runningName, runningName + ".lock", ".out.sqlite.dbgen-Child1", ".out.sqlite.dbgen-Child1.lock"]
        XCTAssertEqual(try names(in: directory), (live + unrelated + ["out.sqlite"]).sorted())

        child.killHard()
        AtomicOutputFile.removeStaleTemporaries(of: destination, tag: "dbgen", companionSuffixes: companions)
        XCTAssertEqual(
            try names(in: directory), ([runningName, runningName + ".lock"] + unrelated + ["out.sqlite"]).sorted())

        try running.commit()
        AtomicOutputFile.removeStaleTemporaries(of: destination, tag: "dbgen", companionSuffixes: companions)
        XCTAssertEqual(try names(in: directory), (unrelated + ["out.sqlite"]).sorted())
    }
}
