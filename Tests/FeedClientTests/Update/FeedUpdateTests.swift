import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// FeedUpdater against nginx serving a feed: the whole file the first time, a patch next, a
/// chain of two patches, the whole file when it is cheaper, and a check when nothing is new
/// (two requests, under 2 KB).
final class FeedUpdateTests: XCTestCase {
    func testTheWholeFileFirstThenAPatch() async throws {
        let fixture = try FeedFixture(publishBundled: false, removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let updater = try fixture.updater()

        let plan = try await updater.check()
        XCTAssertEqual(plan.release, v2)
        XCTAssertFalse(plan.usesPatches, "the bundled data is no release of the feed: the whole file")
        XCTAssertEqual(plan.steps.map(\.path), ["releases/\(v2.sha256).sqlite.zlib"])
        XCTAssertEqual(plan.byteCount, fixture.writer.wholeTarget(v2)?.length)
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: fixture.updates.appendingPathComponent(".feed/metadata/timestamp.json").path),
            "a check that finds something new records nothing")
        try await updater.update(plan)
        XCTAssertEqual(try fixture.inEffect(), v2, "the release's exact file")
        XCTAssertEqual(fixture.staged, [], "nothing left in the staging area")

        let v3File = try fixture.release(3)
        let v3 = try fixture.writer.publish(v3File)
        let next = try await updater.update()
        XCTAssertEqual(next.release, v3)
        XCTAssertTrue(next.usesPatches)
        XCTAssertEqual(next.steps.map(\.path), ["patches/\(v2.sha256)-\(v3.sha256).sql.zlib"])
        XCTAssertEqual(try fixture.contentInEffect(), try FeedFixture.content(v3File))
        XCTAssertTrue(try updater.updateInstaller.contentIdentitiesInEffect().contains(v3.sha256))
    }

    func testAChainOfTwoPatches() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let v3File = try fixture.release(3)
        var options = FeedWriter.Options()
        options.patchesFrom = 1
        let v3 = try fixture.writer.publish(v3File, options)
        XCTAssertNil(fixture.writer.patchTarget(fixture.first, v3))

        var events: [UpdateEvent] = []
        for try await event in try fixture.updater().events() { events.append(event) }
        let plan = try XCTUnwrap(
            events.compactMap { event -> UpdatePlan? in
                if case .planned(let plan) = event { return plan }
                return nil
            }.first)
        XCTAssertEqual(
            plan.steps.map(\.path),
            ["patches/\(fixture.first.sha256)-\(v2.sha256).sql.zlib", "patches/\(v2.sha256)-\(v3.sha256).sql.zlib"])
        XCTAssertEqual(try fixture.contentInEffect(), try FeedFixture.content(v3File))
        XCTAssertEqual(events.first, .checking)
        let installed = events.compactMap { event -> Int64? in
            if case .installed(_, let version) = event { return version }
            return nil
        }
        XCTAssertEqual(installed, [2, 3])
        let downloaded = events.compactMap { event -> Int64? in
            if case .downloading(_, let done, let total) = event {
                XCTAssertEqual(total, plan.byteCount)
                return done
            }
            return nil
        }
        XCTAssertEqual(downloaded.last, plan.byteCount)
        XCTAssertEqual(downloaded, downloaded.sorted(), "progress only goes up")
    }

    func testTheWholeFileWhenItIsCheaperThanThePatch() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        var options = FeedWriter.Options()
        options.keepLargerPatches = true
        let v2File = try fixture.release(2, sql: "DELETE FROM food WHERE id > 10; VACUUM;")
        let v2 = try fixture.writer.publish(v2File, options)
        let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
        let whole = try XCTUnwrap(fixture.writer.wholeTarget(v2))
        XCTAssertGreaterThan(patch.length, whole.length, "the fixture: a patch larger than the file")

        let plan = try await fixture.updater().update()
        XCTAssertEqual(plan.steps.map(\.path), [whole.path])
        XCTAssertEqual(try fixture.inEffect(), v2)
    }

    func testACheckWhenNothingIsNewCostsTwoRequests() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let updater = try fixture.updater()
        try await updater.update()
        let before = try fixture.nginx.accessLog().count

        let plan = try await updater.check()
        XCTAssertTrue(plan.isNothingNew)
        XCTAssertEqual(plan.userVersionInEffect, 2)
        let log = try fixture.nginx.accessLog().dropFirst(before)
        XCTAssertEqual(log.map(\.uri), ["/2.root.json", "/timestamp.json"])
        XCTAssertEqual(log.map(\.status), [404, 304])
        XCTAssertLessThan(log.reduce(0) { $0 + $1.bodyBytesSent }, 1_024)
    }

    func testACheckWhenNothingIsNewTransfersUnderTwoKilobytes() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        let updater = try fixture.updater(url: server.url("/"))
        try await updater.update()
        let (requests, bytes) = (server.requestCount(), server.bytesSent)

        let plan = try await updater.check()
        XCTAssertTrue(plan.isNothingNew)
        XCTAssertEqual(server.requestCount() - requests, 2)
        XCTAssertLessThanOrEqual(server.bytesSent - bytes, 2_048, "status lines, headers and bodies")
        XCTAssertEqual(server.requests.last?.headers["if-none-match"].map { !$0.isEmpty }, true)
    }

    func testNothingNewRecordsTheMetadataAndSaysSo() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        var events: [UpdateEvent] = []
        for try await event in try fixture.updater().events() { events.append(event) }
        XCTAssertEqual(events, [.checking, .nothingNew(userVersion: 1)])
        for name in ["root.json", "timestamp.json", "snapshot.json", "targets.json"] {
            XCTAssertTrue(
                FileManager.default.fileExists(
                    atPath: fixture.updates.appendingPathComponent(".feed/metadata/\(name)").path), name)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: fixture.updates.appendingPathComponent("food.sqlite").path))
    }

    func testAPlanOutdatedByALaterCheckIsNotCarriedOut() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let updater = try fixture.updater()
        let old = try await updater.check()
        let v3 = try fixture.writer.publish(try fixture.release(3))
        let new = try await updater.check()
        XCTAssertEqual(new.release, v3)
        do {
            try await updater.update(old)
            XCTFail("an outdated plan was carried out")
        } catch let error as FeedUpdateError {
            XCTAssertEqual(error.check, .outdatedPlan)
        }
        XCTAssertEqual(try fixture.inEffect().userVersion, 1)
        try await updater.update(new)
        XCTAssertEqual(try fixture.inEffect().userVersion, 3)
    }
}
