@testable import FileSystemKit
import Foundation
import ShipyardTestSupport
import XCTest

/// The sidecar lock: exclusive between processes and between threads, free once its holder is
/// dead (even by kill -9), and gone from the directory once released.
final class SidecarLockTests: XCTestCase {
    func testAnotherProcessIsExcludedWhileTheLockIsHeld() throws {
        let directory = try TemporaryDirectory("sidecar lock", removedAfter: self)
        let path = directory.url(".food.sqlite.lock").path
        let lock = try SidecarLock.acquire(at: path)
        XCTAssertFalse(try anotherProcessCanLock(path))
        lock.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "released: the sidecar is removed")
        XCTAssertTrue(try anotherProcessCanLock(path))
    }

    func testTheLockOfAnotherProcessIsFreeOnceThatProcessIsKilled() throws {
        let directory = try TemporaryDirectory("sidecar lock", removedAfter: self)
        let path = directory.url(".food.sqlite.lock").path
        let holder = try LockHolder(locking: path, in: directory)
        XCTAssertNil(try SidecarLock.acquireIfFree(at: path), "held by a live process")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "a failed attempt removes nothing")
        holder.killHard()
        let lock = try XCTUnwrap(try SidecarLock.acquireIfFree(at: path), "free once its holder is dead")
        XCTAssertFalse(try anotherProcessCanLock(path))
        lock.release()
        XCTAssertEqual(try names(in: directory), [])
    }

    func testAWaiterGetsTheLockWhenItIsReleasedAndHoldsTheFileOthersSee() throws {
        let directory = try TemporaryDirectory("sidecar lock", removedAfter: self)
        let path = directory.url(".lock").path
        let first = try SidecarLock.acquire(at: path)
        let acquired = DispatchSemaphore(value: 0)
        let box = LockBox()
        Thread.detachNewThread {
            box.lock = try? SidecarLock.acquire(at: path)
            acquired.signal()
        }
        XCTAssertEqual(acquired.wait(timeout: .now() + 0.3), .timedOut, "another thread waits while the lock is held")
        first.release()
        XCTAssertEqual(acquired.wait(timeout: .now() + 10), .success)
        // The waiter had opened the file the first holder removed; it must hold the file now at
        // the path, or a third party could take the lock as well.
        XCTAssertNotNil(box.lock)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertNil(try SidecarLock.acquireIfFree(at: path))
        XCTAssertFalse(try anotherProcessCanLock(path))
        box.lock?.release()
        XCTAssertEqual(try names(in: directory), [])
    }

    func testALockInAMissingDirectoryIsAnError() throws {
        let directory = try TemporaryDirectory("sidecar lock", removedAfter: self)
        let path = directory.url("missing/.lock").path
        XCTAssertThrowsError(try SidecarLock.acquire(at: path)) {
            XCTAssertEqual($0 as? FileSystemError, FileSystemError(.lock, path: path, code: ENOENT))
        }
    }
}

/// Hands a lock from a thread to the test.
final class LockBox: @unchecked Sendable {
    var lock: SidecarLock?
}
