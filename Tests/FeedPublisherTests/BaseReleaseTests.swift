import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// The release an app bundles as a patch base: `feed verify --bundled` fails while devices
/// bundling it would download the whole file; `publish --base-only` (``Feed/addBase``) takes it
/// into a feed started after the app shipped, never offered itself, and devices bundling it then
/// get a patch (FeedUpdater through nginx); python-tuf still reads the feed.
final class BaseReleaseTests: XCTestCase {
    private func device(bundling database: String, _ fixture: FeedFixture, _ server: NginxServer) throws
        -> FeedUpdater
    {
        let updates = fixture.directory.url("updates-\(UUID().uuidString)").path
        return FeedUpdater(
            feedURL: server.url("/"), bundledRoot: fixture.rootData, bundledDatabasePath: database,
            updatesDirectory: updates, dataFormat: 1)
    }

    private func bundledCheck(_ database: String, _ fixture: FeedFixture) async throws -> BundledReleaseCheck {
        try await FeedVerifier(
            feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: fixture.rootData,
            fetcher: FileFetcher()
        ).verify(bundled: database).1
    }

    /// The error the bundled check throws, or nil (a failed assertion) when it passes.
    private func bundledCheckError(
        _ database: String, _ fixture: FeedFixture, file: StaticString = #filePath, line: UInt = #line
    ) async -> FeedPublisherError? {
        do {
            let check = try await bundledCheck(database, fixture)
            XCTFail("the bundled check passed: \(check)", file: file, line: line)
            return nil
        } catch {
            XCTAssertTrue(error is FeedPublisherError, "\(error)", file: file, line: line)
            return error as? FeedPublisherError
        }
    }

    func testAFeedStartedAfterTheAppShippedTakesTheBundledReleaseAsABaseAndDevicesBundlingItGetAPatch() async throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = try fixture.release("v1", version: 1)
        let v2 = try fixture.release("v2", version: 2, changedEvery: 40)
        let v3 = try fixture.release("v3", version: 3, changedEvery: 30, seed: "b")
        try fixture.publish(v2)
        try fixture.publish(v3)
        let server = try NginxServer(serving: URL(fileURLWithPath: fixture.feedPath))
        defer { server.stop() }
        // Before: devices bundling v1 download the whole file, and the check says so.
        let before = try await device(bundling: bundled, fixture, server).check()
        XCTAssertEqual(before.release?.userVersion, 3)
        XCTAssertFalse(before.usesPatches)
        let unheld = await bundledCheckError(bundled, fixture)
        XCTAssertEqual(unheld?.subject, bundled)
        XCTAssertTrue(
            unheld?.reason.contains("would download the whole file: the feed does not hold this release") ?? false,
            "\(String(describing: unheld))")
        XCTAssertTrue(unheld?.reason.contains("--base-only") ?? false)
        // A release cannot be added below the newest; a base can.
        XCTAssertThrowsError(try fixture.publish(bundled)) { error in
            XCTAssertTrue("\(error)".contains("is not greater than that of the newest release"), "\(error)")
        }
        let added = try fixture.publish(bundled, options: PublishOptions(baseOnly: true))
        XCTAssertTrue(added.isBaseOnly)
        XCTAssertEqual(added.patches.map(\.result.userVersion), [3, 2])
        XCTAssertEqual(added.patches.map(\.kept), [true, true])
        let facts = try XCTUnwrap(
            try fixture.targets().values.compactMap { try ReleaseFacts(of: $0) }.first {
                $0.kind == .database && $0.result.userVersion == 1
            })
        XCTAssertTrue(facts.baseOnly)
        XCTAssertNil(facts.channel)
        let check = try await bundledCheck(bundled, fixture)
        XCTAssertEqual(check.newest?.userVersion, 3)
        XCTAssertEqual(check.patchCount, 1)
        XCTAssertLessThan(check.bytes, check.wholeFileBytes)
        // The device's own choice agrees: a patch, and the content is v3's.
        let updater = try device(bundling: bundled, fixture, server)
        let plan = try await updater.update()
        XCTAssertEqual(plan.release?.userVersion, 3)
        XCTAssertTrue(plan.usesPatches, "\(plan.steps.map(\.path))")
        XCTAssertEqual(plan.byteCount, check.bytes)
        XCTAssertEqual(
            try DatabaseContent.dump(try updater.updateInstaller.databaseInEffect().path), try DatabaseContent.dump(v3))
        // A later release patches from the base too, however old (--patches-from 1).
        let v4 = try fixture.release("v4", version: 4, changedEvery: 20, seed: "c")
        let published = try fixture.publish(v4, options: PublishOptions(patchesFrom: 1))
        XCTAssertEqual(published.patches.map(\.base.userVersion), [3, 1])
        let later = try await bundledCheck(bundled, fixture)
        XCTAssertEqual(later.patchCount, 1)
        let verification = try await fixture.verification()
        XCTAssertEqual(verification.releases.map(\.userVersion), [4, 3, 2])
        XCTAssertEqual(verification.bases.map(\.userVersion), [1])
        // python-tuf reads the feed: every target, the base's facts as written.
        let lines = try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory)
        let base = lines.filter { $0.contains("\"base_only\": true") }
        XCTAssertEqual(base.count, 1, lines.joined(separator: "\n"))
        XCTAssertTrue(base[0].hasPrefix("releases/"), base[0])
        XCTAssertEqual(lines.filter { $0.contains("\"base_only\"") }.count, 1)
    }

    func testABaseIsNeverOfferedAsAnUpdate() async throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let old = try fixture.release("v1", version: 1)
        let base = try fixture.release("v5", version: 5, changedEvery: 10)
        try fixture.publish(base, options: PublishOptions(baseOnly: true))
        let server = try NginxServer(serving: URL(fileURLWithPath: fixture.feedPath))
        defer { server.stop() }
        let plan = try await device(bundling: old, fixture, server).update()
        XCTAssertTrue(plan.isNothingNew, "a device on older data is not offered the base")
        XCTAssertEqual(plan.withheld, [], "nor is it a release withheld from it")
        let verification = try await fixture.verification()
        XCTAssertEqual(verification.releases, [])
        // Devices bundling the base: nothing newer yet, and that is no failure.
        let check = try await bundledCheck(base, fixture)
        XCTAssertNil(check.newest)
    }

    func testBaseOnlyRefusesTheFactsOfAReleaseAndAddsNothingTheFeedHolds() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let v1 = try fixture.release("v1", version: 1)
        try fixture.publish(v1)
        let before = try fixture.tree()
        for options in [
            PublishOptions(channel: "beta", baseOnly: true), PublishOptions(rollout: 0.5, baseOnly: true),
            PublishOptions(critical: true, baseOnly: true),
            PublishOptions(dataFormat: .init(minimum: 2), baseOnly: true),
        ] {
            XCTAssertThrowsError(try fixture.publish(v1, options: options)) { error in
                XCTAssertEqual((error as? FeedPublisherError)?.subject, "--base-only", "\(error)")
            }
        }
        let again = try fixture.publish(v1, options: PublishOptions(baseOnly: true))
        XCTAssertTrue(again.wasAlreadyPublished)
        XCTAssertFalse(again.isBaseOnly, "it is a release, a patch base already")
        XCTAssertEqual(try fixture.tree(), before)
    }

    func testTheBundledCheckFailsWhenNoPatchLeadsFromTheBundledRelease() async throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = try fixture.release("v1", version: 1)
        try fixture.publish(bundled)
        let first = try await bundledCheck(bundled, fixture)
        XCTAssertNil(first.newest, "published first: nothing newer yet")
        try fixture.publish(
            try fixture.release("v2", version: 2, changedEvery: 40), options: PublishOptions(patchesFrom: 0))
        let error = await bundledCheckError(bundled, fixture)
        XCTAssertEqual(error?.subject, bundled)
        XCTAssertTrue(
            error?.reason.contains("would download the whole file of user_version 2") ?? false,
            "\(String(describing: error))")
        XCTAssertTrue(error?.reason.contains("the feed has no patch from it") ?? false)
        try fixture.publish(try fixture.release("v3", version: 3, changedEvery: 30, seed: "b"))
        let check = try await bundledCheck(bundled, fixture)
        XCTAssertEqual(check.newest?.userVersion, 3)
        XCTAssertEqual(check.patchCount, 1, "the next publish patched from it again")
    }

    func testPruneKeepsBasesAndTheirPatchesToTheReleasesKept() async throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = try fixture.release("v1", version: 1)
        for version in 2...4 {
            try fixture.publish(try fixture.release("v\(version)", version: version, changedEvery: 10 * version))
        }
        try fixture.publish(bundled, options: PublishOptions(baseOnly: true))
        let summary = try fixture.feed.prune(key: fixture.key, keySource: "test.key", keep: 1)
        XCTAssertEqual(summary.kept.map(\.userVersion), [4])
        let verification = try await fixture.verification()
        XCTAssertEqual(verification.bases.map(\.userVersion), [1])
        XCTAssertEqual(verification.patchCount, 1, "the base's patch to release 4")
        let check = try await bundledCheck(bundled, fixture)
        XCTAssertEqual(check.patchCount, 1)
    }
}
