import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// The data epoch (FeedClient's `DataEpoch`) through what else writes a root or reads the
/// releases: a renewed root and an added recovery key keep the epoch (a root without it is
/// refused by devices that installed under it); a base-only release stays a patch base across
/// `rotate --reset-data` and `prune`; `feed verify --against` orders the hosted releases by
/// (epoch, `user_version`) and refuses a root that lowers the hosted epoch. The oracle is a
/// device: FeedUpdater through nginx.
final class DataEpochCompositionTests: XCTestCase {
    private let day: TimeInterval = 86_400

    private func epoch(of root: Data) throws -> Int64 {
        try DataEpoch.of(try Root(try Metadata(data: root, document: "root.json")))
    }

    private func device(_ server: NginxServer, root: Data, bundling database: String, updates: URL) -> FeedUpdater {
        FeedUpdater(
            feedURL: server.url("/"), bundledRoot: root, bundledDatabasePath: database, updatesDirectory: updates.path,
            dataFormat: 1)
    }

    /// The error `body` throws, as a FeedUpdateError (nil, a failed assertion, when it throws none).
    private func updateError(_ body: () async throws -> UpdatePlan, line: UInt = #line) async -> FeedUpdateError? {
        do {
            let plan = try await body()
            XCTFail("no error: \(plan)", line: line)
            return nil
        } catch {
            XCTAssertTrue(error is FeedUpdateError, "\(error)", line: line)
            return error as? FeedUpdateError
        }
    }

    private var uploads = 0

    /// Dates the feed's `timestamp.json` a second after the last one dated: nginx's ETag is the
    /// file's modification time (seconds) and length, so two timestamps of one length written in
    /// one second would share it and a device be answered 304. A publisher's uploads are seconds apart.
    private func upload(_ feed: String) throws {
        uploads += 1
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(uploads))],
            ofItemAtPath: feed + "/timestamp.json")
    }

    /// Replaces every file of `destination` by those of `source` (an upload over the host).
    private func copy(_ source: String, over destination: URL) throws {
        try? FileManager.default.removeItem(at: destination)
        for (name, data) in DirectoryTree.files(under: source) {
            let file = destination.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        try upload(destination.path)
    }

    func testARenewedRootAndAnAddedRecoveryKeyKeepTheDataEpochAndDevicesStillUpdate() async throws {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let bundledRoot = fixture.rootData
        let v1 = try fixture.release("v1", version: 1)
        try fixture.publish(v1)
        let newKey = Ed25519SigningKey()
        try fixture.feed.rotate(
            oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key", resetData: true)
        try fixture.feed.publish(
            try fixture.release("v2", version: 2, changedEvery: 9), key: newKey, keySource: "new.key")
        let server = try NginxServer(serving: URL(fileURLWithPath: fixture.feedPath))
        defer { server.stop() }
        let updater = device(server, root: bundledRoot, bundling: v1, updates: fixture.directory.url("updates"))
        try upload(fixture.feedPath)
        let first = try await updater.update()
        XCTAssertEqual(first.release?.userVersion, 2)

        // 310 days on, the cron renews root (version 3); then a recovery key is added (version 4).
        fixture.clock.now = fixture.clock.now.addingTimeInterval(310 * day)
        XCTAssertEqual(try fixture.feed.resignTimestamp(key: newKey, keySource: "new.key").rootVersion, 3)
        XCTAssertEqual(try epoch(of: fixture.rootData), 1, "the renewed root")
        XCTAssertEqual(
            try fixture.feed.addRecoveryKeys([Ed25519SigningKey().publicKey], key: newKey, keySource: "new.key"), 4)
        XCTAssertEqual(try epoch(of: fixture.rootData), 1, "the root naming another recovery key")
        XCTAssertEqual(
            try PythonTUFClient.rootEpoch(feed: fixture.feedPath, root: bundledRoot, in: fixture.directory), "4 1")
        let v3 = try fixture.release("v3", version: 3, changedEvery: 7, seed: "c")
        try fixture.feed.publish(v3, key: newKey, keySource: "new.key")
        try upload(fixture.feedPath)
        let plan = try await updater.update()
        XCTAssertEqual(plan.release?.userVersion, 3)
        XCTAssertFalse(plan.resetsData)
        XCTAssertEqual(
            try DatabaseContent.dump(try updater.databaseUpdater.databaseInEffect().path), try DatabaseContent.dump(v3))

        // What keeping it guards against: a next root without the epoch is refused by this device.
        let state = try FeedState.load(fixture.feed.layout)
        try fixture.feed.writer.writeRoot(
            version: 5, keys: state.root.keys, roles: state.root.roles, dataEpoch: 0, signedBy: [newKey])
        try upload(fixture.feedPath)
        let error = await updateError { try await updater.check() }
        XCTAssertEqual(error?.subject, "root.json")
        XCTAssertEqual(error?.check, .rollback)
        XCTAssertTrue(error?.reason.contains("data epoch 0 is below 1") ?? false, "\(String(describing: error))")
    }

    func testABaseStaysAPatchBaseAcrossADataResetAndPruneKeepsIt() async throws {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let bundledRoot = fixture.rootData
        let bundled = try fixture.release("v1", version: 1)
        try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 40))
        try fixture.publish(bundled, options: PublishOptions(baseOnly: true)) // under epoch 0
        try fixture.publish(try fixture.release("leaked", version: 2_147_483_647, changedEvery: 3, seed: "x"))
        let server = try NginxServer(serving: URL(fileURLWithPath: fixture.feedPath))
        defer { server.stop() }
        let updater = device(server, root: bundledRoot, bundling: bundled, updates: fixture.directory.url("updates"))
        try upload(fixture.feedPath)
        let leakedPlan = try await updater.update()
        XCTAssertEqual(leakedPlan.release?.userVersion, 2_147_483_647)
        let newKey = Ed25519SigningKey()
        try fixture.feed.rotate(
            oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key", resetData: true)

        // The base is not published again, as a base or as a release of the new epoch.
        XCTAssertTrue(
            try fixture.feed.publish(
                bundled, key: newKey, keySource: "new.key", options: PublishOptions(baseOnly: true)
            )
            .wasAlreadyPublished)
        XCTAssertThrowsError(try fixture.feed.publish(bundled, key: newKey, keySource: "new.key")) { error in
            XCTAssertTrue("\(error)".contains("is already in the feed with other facts"), "\(error)")
        }
        // The next release patches from the newest release below it and from the base, whatever their epoch.
        let v3 = try fixture.release("v3", version: 3, changedEvery: 30, seed: "b")
        let published = try fixture.feed.publish(
            v3, key: newKey, keySource: "new.key", options: PublishOptions(patchesFrom: 1))
        XCTAssertEqual(published.patches.map(\.base.userVersion), [2, 1])
        let facts = try fixture.targets().values.compactMap { try ReleaseFacts(of: $0) }
        let base = try XCTUnwrap(facts.first { $0.kind == .database && $0.result.userVersion == 1 })
        XCTAssertTrue(base.baseOnly)
        XCTAssertEqual(base.dataEpoch, 0, "still the base written under epoch 0")
        XCTAssertEqual(facts.first { $0.base?.userVersion == 1 && $0.result.userVersion == 3 }?.dataEpoch, 1)

        // The device drops the leaked data and patches from its bundled database, the base.
        try upload(fixture.feedPath)
        let plan = try await updater.update()
        XCTAssertTrue(plan.resetsData)
        XCTAssertEqual(plan.release?.userVersion, 3)
        XCTAssertEqual(plan.steps.map { $0.facts.base?.userVersion }, [1])
        XCTAssertEqual(
            try DatabaseContent.dump(try updater.databaseUpdater.databaseInEffect().path), try DatabaseContent.dump(v3))
        let verifier = FeedVerifier(
            feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: bundledRoot,
            fetcher: FileFetcher())
        let (_, check) = try await verifier.verify(bundled: bundled)
        XCTAssertEqual(check.newest?.userVersion, 3)
        XCTAssertEqual(check.patchCount, 1)

        // A base added under the new epoch gets patches to that epoch's releases only.
        let other = try fixture.release("other", version: 1, changedEvery: 50, seed: "o")
        let added = try fixture.feed.publish(
            other, key: newKey, keySource: "new.key", options: PublishOptions(baseOnly: true))
        XCTAssertEqual(added.patches.map(\.result.userVersion), [3])
        // Prune keeps the newest release of the newest epoch and every base, of any epoch.
        let pruned = try fixture.feed.prune(key: newKey, keySource: "new.key", keep: 1)
        XCTAssertEqual(pruned.kept.map(\.userVersion), [3])
        let (verification, after) = try await verifier.verify(bundled: bundled)
        XCTAssertEqual(verification.releases.map(\.userVersion), [3])
        XCTAssertEqual(verification.bases.map(\.userVersion), [1, 1])
        XCTAssertEqual(after.patchCount, 1)
        XCTAssertNoThrow(try PythonTUFClient.read(feed: fixture.feedPath, root: bundledRoot, in: fixture.directory))
    }

    func testVerifyAgainstLetsAnEarlierEpochsReleasesGoAndRefusesARootThatLowersTheEpoch() async throws {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let bundledRoot = fixture.rootData
        let v1 = try fixture.release("v1", version: 1)
        try fixture.publish(v1)
        try fixture.publish(try fixture.release("leaked", version: 2_147_483_647, changedEvery: 3, seed: "x"))
        let hosted = fixture.directory.url("hosted")
        try copy(fixture.feedPath, over: hosted)
        let server = try NginxServer(serving: hosted)
        defer { server.stop() }
        let updates = fixture.directory.url("updates")
        let leakedPlan = try await device(server, root: bundledRoot, bundling: v1, updates: updates).update()
        XCTAssertEqual(leakedPlan.release?.userVersion, 2_147_483_647)
        let newKey = Ed25519SigningKey()
        try fixture.feed.rotate(
            oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key", resetData: true)
        try copy(fixture.feedPath, over: hosted)
        let reset = try await device(server, root: bundledRoot, bundling: v1, updates: updates).update()
        XCTAssertTrue(reset.resetsData, "the device dropped the leaked data and keeps epoch 1")

        // A copy whose next root lowers the epoch again: named, as the device refuses it.
        let lowered = fixture.directory.url("lowered").path
        _ = try await Feed.pull(from: hosted, into: lowered, root: bundledRoot, fetcher: FileFetcher())
        let state = try FeedState.load(FeedLayout(directory: lowered))
        try MetadataWriter(layout: FeedLayout(directory: lowered), clock: fixture.clock).writeRoot(
            version: 3, keys: state.root.keys, roles: state.root.roles, dataEpoch: 0, signedBy: [newKey])
        try upload(lowered)
        let loweredVerifier = FeedVerifier(
            feedURL: URL(fileURLWithPath: lowered, isDirectory: true), root: bundledRoot, fetcher: FileFetcher())
        _ = try await loweredVerifier.verify()
        do {
            let check = try await loweredVerifier.check(againstHosted: hosted, fetcher: FileFetcher())
            XCTFail("a root lowering the epoch passed: \(check)")
        } catch let error as FeedPublisherError {
            XCTAssertTrue(error.subject.hasSuffix("lowered/root.json"), error.subject)
            XCTAssertTrue(error.reason.contains("data epoch 0 is below the hosted root's 1"), error.reason)
        }
        let loweredServer = try NginxServer(serving: URL(fileURLWithPath: lowered))
        defer { loweredServer.stop() }
        let refused = await updateError {
            try await self.device(loweredServer, root: bundledRoot, bundling: v1, updates: updates).check()
        }
        XCTAssertEqual(refused?.check, .rollback, "\(String(describing: refused))")

        // CI publishes under epoch 1 and prunes the earlier epoch's releases, the leaked one's
        // user_version above the release it keeps: devices holding the hosted feed take it.
        try fixture.feed.publish(
            try fixture.release("v2", version: 2, changedEvery: 9), key: newKey, keySource: "new.key")
        try copy(fixture.feedPath, over: hosted)
        let ci = fixture.directory.url("ci").path
        _ = try await Feed.pull(from: hosted, into: ci, root: bundledRoot, fetcher: FileFetcher())
        let pruned = try Feed(directory: ci, clock: fixture.clock).prune(key: newKey, keySource: "new.key", keep: 1)
        XCTAssertEqual(pruned.kept.map(\.userVersion), [2])
        let verifier = FeedVerifier(
            feedURL: URL(fileURLWithPath: ci, isDirectory: true), root: bundledRoot, fetcher: FileFetcher())
        _ = try await verifier.verify()
        let check = try await verifier.check(againstHosted: hosted, fetcher: FileFetcher())
        XCTAssertFalse(check.isUnchanged)
        try copy(ci, over: hosted)
        let plan = try await device(server, root: bundledRoot, bundling: v1, updates: updates).update()
        XCTAssertEqual(plan.release?.userVersion, 2)
    }
}
