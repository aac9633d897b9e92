@testable import FileSystemKit
import Foundation
import ShipyardTestSupport
import XCTest

/// Atomic replacement and creation of small files: content, permissions, symbolic links, and
/// the old file left exactly as it was (with no temporary file) whenever anything fails.
final class AtomicFileTests: XCTestCase {
    func testReplaceWritesTheContentAndKeepsTheFilesPermissions() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = try directory.write("Info.plist", "old").path
        chmod(path, 0o751)
        try AtomicFile.replace(path, with: Data("new \u{1F600}\r\n".utf8), tag: "test")
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("new \u{1F600}\r\n".utf8))
        XCTAssertEqual(permissions(path), 0o751)
        XCTAssertEqual(try names(in: directory), ["Info.plist"], "no temporary file left")
    }

    func testMoveIntoPlaceReplacesTheDestinationWithTheWholeFile() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let source = try directory.write("blob.partial", "new content").path
        let destination = try directory.write("blob", "old").path
        try AtomicFile.moveIntoPlace(source, as: destination)
        XCTAssertEqual(FileManager.default.contents(atPath: destination), Data("new content".utf8))
        XCTAssertEqual(try names(in: directory), ["blob"], "the source is gone")
    }

    func testMoveIntoPlaceOntoADirectoryFailsNamingItAndKeepsTheSource() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let source = try directory.write("blob.partial", "new content").path
        let destination = directory.url.appendingPathComponent("blob").path
        try FileManager.default.createDirectory(atPath: destination + "/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicFile.moveIntoPlace(source, as: destination)) { error in
            XCTAssertEqual((error as? FileSystemError)?.path, destination)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: source), Data("new content".utf8))
    }

    func testReplaceInALaterSecondWaitsOutTheSecondOfTheFileItReplaces() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = try directory.write("BuildVersion.swift", "old").path
        let second = Int64(Date().timeIntervalSince1970.rounded(.down))
        setModificationTime(path, seconds: second, nanoseconds: 900_000_000)
        try AtomicFile.replace(path, with: Data("new".utf8), tag: "test", durability: .atomicOnly, laterSecond: true)
        let stamp = try XCTUnwrap(FileStamp.of(path))
        XCTAssertGreaterThan(stamp.mtimeSeconds, second)
        XCTAssertLessThanOrEqual(Double(stamp.mtimeSeconds), Date().timeIntervalSince1970, "not in the future")
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("new".utf8))
        XCTAssertEqual(try names(in: directory), ["BuildVersion.swift"], "no temporary file left")
    }

    func testReplaceInALaterSecondOfAFileFromTheFutureTakesTheSecondAfterIt() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = try directory.write("BuildVersion.swift", "old").path
        let future = Int64(Date().timeIntervalSince1970) + 3600 // a clock set back since
        setModificationTime(path, seconds: future, nanoseconds: 0)
        try AtomicFile.replace(path, with: Data("new".utf8), tag: "test", durability: .atomicOnly, laterSecond: true)
        XCTAssertEqual(FileStamp.of(path)?.mtimeSeconds, future + 1)
    }

    func testReplaceCreatesAMissingFileWithTheUmasksPermissions() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = directory.url("new.d").path
        try AtomicFile.replace(path, with: Data(), tag: "test", durability: .atomicOnly)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data())
        XCTAssertEqual(permissions(path), 0o666 & ~currentUmask())
    }

    func testReplaceFollowsAChainOfSymbolicLinks() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let real = try directory.write("real dir/Info.plist", "old").path
        chmod(real, 0o600)
        // outer -> inner (absolute) -> real dir/Info.plist (relative to inner's directory)
        let inner = directory.url("links/inner").path
        try FileManager.default.createDirectory(atPath: directory.url("links").path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: inner, withDestinationPath: "../real dir/Info.plist")
        let outer = directory.url("outer").path
        try FileManager.default.createSymbolicLink(atPath: outer, withDestinationPath: inner)

        try AtomicFile.replace(outer, with: Data("new".utf8), tag: "test")
        XCTAssertEqual(FileManager.default.contents(atPath: real), Data("new".utf8))
        XCTAssertEqual(permissions(real), 0o600)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: outer), inner, "the links stay links")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: inner), "../real dir/Info.plist")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.url("real dir").path), ["Info.plist"])
    }

    func testReplaceInAReadOnlyDirectoryFailsAndLeavesTheFileAsItWas() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let locked = directory.url("read-only").path
        let path = try directory.write("read-only/Info.plist", "old").path
        chmod(locked, 0o555)
        defer { chmod(locked, 0o755) }
        XCTAssertThrowsError(
            try withoutPermissionOverride { try AtomicFile.replace(path, with: Data("new".utf8), tag: "test") }
        ) {
            let error = $0 as? FileSystemError
            XCTAssertEqual(error?.operation, .createTemporary, "\($0)")
            XCTAssertEqual(error?.code, EACCES)
            XCTAssertEqual(error?.path, path, "the error names the file, not a temporary")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked), ["Info.plist"])
    }

    func testAWriteThatFailsHalfWayLeavesTheFileAsItWas() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = try directory.write("big.json", "old").path
        // A file-size limit makes write(2) fail part-way, as a full disk does (EFBIG, not a signal).
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(), saved = rlimit()
        getrlimit(Self.fileSizeLimit, &saved)
        limit = saved
        limit.rlim_cur = 64 * 1024
        XCTAssertEqual(setrlimit(Self.fileSizeLimit, &limit), 0)
        defer {
            setrlimit(Self.fileSizeLimit, &saved)
            signal(SIGXFSZ, previousHandler)
        }
        XCTAssertThrowsError(try AtomicFile.replace(path, with: Data(repeating: 7, count: 256 * 1024), tag: "test")) {
            XCTAssertEqual(($0 as? FileSystemError)?.operation, .write, "\($0)")
            XCTAssertEqual(($0 as? FileSystemError)?.code, EFBIG)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old".utf8))
        XCTAssertEqual(try names(in: directory), ["big.json"], "the partial temporary file is removed")
    }

    func testAFailedRenameRemovesTheTemporaryFile() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        try directory.write("target/keep", "kept")
        XCTAssertThrowsError(try AtomicFile.replace(directory.url("target").path, with: Data("x".utf8), tag: "test")) {
            XCTAssertEqual(($0 as? FileSystemError)?.operation, .rename, "\($0)")
        }
        XCTAssertEqual(try names(in: directory), ["target"])
        XCTAssertEqual(FileManager.default.contents(atPath: directory.url("target/keep").path), Data("kept".utf8))
    }

    func testCreateNeverReplacesAFileAndGivesThePermissionsAsked() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = directory.url("user.sqlite").path
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        XCTAssertTrue(try AtomicFile.create(path, with: Data("first".utf8), permissions: 0o644, tag: "tmp"))
        XCTAssertEqual(permissions(path), 0o644, "whatever the umask")
        XCTAssertFalse(try AtomicFile.create(path, with: Data("second".utf8), permissions: 0o644, tag: "tmp"))
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("first".utf8))
        XCTAssertEqual(try names(in: directory), ["user.sqlite"], "the temporary file is always removed")
    }

    func testCreatesRacingFromManyThreadsMakeExactlyOneCompleteFile() throws {
        let directory = try TemporaryDirectory("atomic file", removedAfter: self)
        let path = directory.url("user.sqlite").path
        let contents = (0..<8).map { Data(repeating: UInt8($0), count: 300_000) }
        let created = Counter()
        DispatchQueue.concurrentPerform(iterations: contents.count) { index in
            if (try? AtomicFile.create(path, with: contents[index], permissions: 0o644, tag: "tmp")) == true {
                created.increment()
            }
        }
        XCTAssertEqual(created.value, 1)
        XCTAssertTrue(
            contents.contains(FileManager.default.contents(atPath: path) ?? Data()), "one writer's whole content")
        XCTAssertEqual(try names(in: directory), ["user.sqlite"])
    }

    #if canImport(Darwin)
    private static let fileSizeLimit = RLIMIT_FSIZE
    #else
    private static let fileSizeLimit = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #endif
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func increment() { lock.lock(); count += 1; lock.unlock() }
}
