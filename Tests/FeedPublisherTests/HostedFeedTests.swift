import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// `feed pull` (the hosted feed brought down, verified, written by one rename) and `feed verify
/// --against` (what devices holding the hosted feed would refuse or ignore). The oracle for
/// "refuse or ignore" is a device: FeedUpdater, holding the hosted feed, reading the other one
/// through nginx after it is uploaded over it.
final class HostedFeedTests: XCTestCase {
    /// The root the app bundles: the hosted feed's first (a rotation later makes another).
    private var bundledRoot = Data()

    /// A hosted feed (the fixture's, releases 1 and 2: every document at version 3) and the
    /// databases of releases 1 to 6.
    private func hostedFeed() throws -> (FeedFixture, [String]) {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        bundledRoot = fixture.rootData
        let releases = try (1...6).map {
            try fixture.release("v\($0)", version: $0, changedEvery: $0 == 1 ? 0 : 10 * $0, seed: "s\($0)")
        }
        try fixture.publish(releases[0])
        try fixture.publish(releases[1])
        return (fixture, releases)
    }

    private func pull(_ fixture: FeedFixture, from url: URL, fetcher: Fetcher, into name: String) async throws
        -> PullSummary
    {
        try await Feed.pull(from: url, into: fixture.directory.url(name).path, root: bundledRoot, fetcher: fetcher)
    }

    private func against(_ fixture: FeedFixture, feed name: String, hosted: String) async throws -> HostedFeedCheck {
        let verifier = FeedVerifier(
            feedURL: fixture.directory.url(name), root: bundledRoot, fetcher: FileFetcher())
        _ = try await verifier.verify()
        return try await verifier.check(againstHosted: fixture.directory.url(hosted), fetcher: FileFetcher())
    }

    /// Another feed made anew with the fixture's key and clock (so its 1.root.json is the hosted one).
    private func anew(_ fixture: FeedFixture, _ name: String, publishing databases: [String]) throws -> Feed {
        let feed = Feed(directory: fixture.directory.url(name).path, clock: fixture.clock)
        try feed.initialize(key: fixture.key)
        for database in databases { try feed.publish(database, key: fixture.key, keySource: "test.key") }
        return feed
    }

    /// Copies every file of `source` over `destination`: the targets first, the metadata last.
    private func upload(_ source: URL, over destination: URL) throws {
        func order(_ name: String) -> (Int, String) { (name.hasPrefix("targets/") ? 0 : 1, name) }
        let files = DirectoryTree.files(under: source.path).sorted { order($0.key) < order($1.key) }
        for (name, data) in files {
            let target = destination.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        }
        uploads += 1
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(10 * Double(uploads))],
            ofItemAtPath: destination.appendingPathComponent("timestamp.json").path)
    }

    /// Uploads so far: each dates its timestamp seconds after the one before, as a real upload
    /// after another is. nginx's ETag is the modification time (seconds) and length, so a
    /// timestamp rewritten within the second at the same length is answered 304 to a device
    /// holding the one before, which then sees nothing new.
    private var uploads = 0

    private func expectError(
        _ body: @autoclosure () async throws -> some Any, subject: String, reason: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            let value = try await body()
            XCTFail("no error: \(value)", file: file, line: line)
        } catch {
            let error = error as? FeedPublisherError
            XCTAssertEqual(error?.subject, subject, "\(String(describing: error))", file: file, line: line)
            XCTAssertTrue(
                error?.reason.contains(reason) ?? false, "\(String(describing: error))", file: file, line: line)
        }
    }

    func testPullCopiesTheCurrentHostedDocumentsAndTargetsByteForByteOverHTTP() async throws {
        let (fixture, _) = try hostedFeed()
        let key = Ed25519SigningKey()
        try fixture.feed.rotate(oldKey: fixture.key, oldKeySource: "old", newKey: key, newKeySource: "new")
        let server = try NginxServer(serving: URL(fileURLWithPath: fixture.feedPath))
        defer { server.stop() }
        let summary = try await pull(fixture, from: server.url("/"), fetcher: HTTPFetcher(), into: "pulled")
        XCTAssertEqual(summary.expired, [])
        XCTAssertEqual(summary.verification.rootVersion, 2)
        XCTAssertEqual(summary.verification.releases.map(\.userVersion), [2, 1])
        let hosted = try fixture.tree()
        let pulled = DirectoryTree.files(under: fixture.directory.url("pulled").path)
        let state = try FeedState.load(FeedLayout(directory: fixture.feedPath))
        var expected = [
            "root.json", "1.root.json", "2.root.json", "timestamp.json",
            "\(state.snapshot.header.version).snapshot.json", "\(state.targets.header.version).targets.json",
        ]
        expected += state.targetFiles.compactMap(\.storedName)
        XCTAssertEqual(Set(pulled.keys), Set(expected))
        XCTAssertEqual(summary.fileCount, expected.count)
        for (name, data) in pulled { XCTAssertEqual(data, hosted[name], name) }
        // A pulled feed is a feed to publish to: python-tuf reads it, and a publish continues it.
        let continued = Feed(directory: fixture.directory.url("pulled").path, clock: fixture.clock)
        try continued.publish(
            try fixture.release("v3", version: 3, changedEvery: 7), key: key, keySource: "new.key")
        let lines = try PythonTUFClient.read(
            feed: fixture.directory.url("pulled").path, root: bundledRoot, in: fixture.directory)
        XCTAssertEqual(lines.first, "2 5 5 5", lines.joined(separator: "\n"))
    }

    func testPullWritesNothingWhenAnythingFailsAndNeverOverAFeed() async throws {
        let (fixture, _) = try hostedFeed()
        let hostedURL = URL(fileURLWithPath: fixture.feedPath, isDirectory: true)
        let parent = fixture.directory.url("ci")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        // A directory that is not empty is not replaced.
        try fixture.directory.write("ci/busy/file", "mine")
        await expectError(
            try await pull(fixture, from: hostedURL, fetcher: FileFetcher(), into: "ci/busy"),
            subject: fixture.directory.url("ci/busy").path, reason: "not empty")
        XCTAssertEqual(DirectoryTree.files(under: fixture.directory.url("ci/busy").path), ["file": Data("mine".utf8)])
        // A target changed on the host: named, and nothing written.
        let state = try FeedState.load(FeedLayout(directory: fixture.feedPath))
        let target = try XCTUnwrap(state.targetFiles.first { $0.path.hasPrefix("releases/") })
        let blob = fixture.feedPath + "/" + target.storedName!
        let original = try Data(contentsOf: URL(fileURLWithPath: blob))
        var tampered = original
        tampered[tampered.count / 2] ^= 0x55
        try tampered.write(to: URL(fileURLWithPath: blob))
        await expectError(
            try await pull(fixture, from: hostedURL, fetcher: FileFetcher(), into: "ci/feed"), subject: target.path,
            reason: "length or hash mismatch")
        try original.write(to: URL(fileURLWithPath: blob))
        // A feed the app's root does not lead to.
        let other = try FeedFixture(self)
        try other.initialize()
        do {
            let pulled = try await Feed.pull(
                from: hostedURL, into: parent.appendingPathComponent("feed").path, root: other.rootData,
                fetcher: FileFetcher())
            XCTFail("pulled a feed the app's root does not lead to: \(pulled)")
        } catch {}
        // A root version the host lacks.
        try FileManager.default.removeItem(atPath: fixture.feedPath + "/1.root.json")
        await expectError(
            try await pull(fixture, from: hostedURL, fetcher: FileFetcher(), into: "ci/feed"),
            subject: hostedURL.absoluteString + "1.root.json", reason: "missing on the host")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted(), ["busy"],
            "no feed and no scratch directory left")
    }

    func testPullRefusesAnExpiredHostedFeedUnlessAllowedAndAPublishRenewsIt() async throws {
        let fixture = try FeedFixture(self)
        fixture.clock = FeedClock(now: Date().addingTimeInterval(-3 * 86_400))
        try fixture.initialize()
        bundledRoot = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        let hostedURL = URL(fileURLWithPath: fixture.feedPath, isDirectory: true)
        await expectError(
            try await pull(fixture, from: hostedURL, fetcher: FileFetcher(), into: "pulled"),
            subject: hostedURL.absoluteString + "timestamp.json", reason: "pull it anyway with --allow-expired")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory.url("pulled").path))
        let summary = try await Feed.pull(
            from: hostedURL, into: fixture.directory.url("pulled").path, root: bundledRoot, fetcher: FileFetcher(),
            allowExpired: true)
        XCTAssertEqual(summary.expired.count, 1, "\(summary.expired)")
        XCTAssertTrue(summary.expired[0].hasPrefix("timestamp.json expired at "), summary.expired[0])
        let renewed = Feed(directory: fixture.directory.url("pulled").path, clock: FeedClock(now: Date()))
        try renewed.resignTimestamp(key: fixture.key, keySource: "test.key")
        let verified = try await FeedVerifier(
            feedURL: fixture.directory.url("pulled"), root: fixture.rootData, fetcher: FileFetcher()
        ).verify()
        XCTAssertEqual(verified.timestampVersion, 3)
    }

    /// What `--against` refuses, a device refuses (a rollback) or ignores (nothing new while a
    /// newer release is there); what it takes, a device takes.
    func testVerifyAgainstRefusesWhatADeviceHoldingTheHostedFeedRefusesOrIgnores() async throws {
        let (fixture, releases) = try hostedFeed()
        let hosted = fixture.directory.url("hosted")
        func serveHosted() throws {
            try? FileManager.default.removeItem(at: hosted)
            try FileManager.default.copyItem(atPath: fixture.feedPath, toPath: hosted.path)
        }
        try serveHosted()
        let server = try NginxServer(serving: hosted)
        defer { server.stop() }
        let updates = fixture.directory.url("updates").path
        let device = FeedUpdater(
            feedURL: server.url("/"), bundledRoot: fixture.rootData, bundledDatabasePath: releases[0],
            updatesDirectory: updates, dataFormat: 1)
        let first = try await device.update()
        XCTAssertEqual(first.release?.userVersion, 2)
        let held = DirectoryTree.files(under: updates)
        func restoreDevice() throws {
            try FileManager.default.removeItem(atPath: updates)
            for (name, data) in held {
                let path = URL(fileURLWithPath: updates + "/" + name)
                try FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: path)
            }
        }

        // Made anew, every version equal to the hosted one: ignored.
        _ = try anew(fixture, "equal", publishing: [releases[0], releases[2]])
        await expectError(
            try await against(fixture, feed: "equal", hosted: "feed"),
            subject: fixture.directory.url("equal/timestamp.json").path,
            reason: "version 3 is the hosted version but not the hosted document")
        try upload(fixture.directory.url("equal"), over: hosted)
        let ignored = try await device.check()
        XCTAssertTrue(ignored.isNothingNew, "release 3 is in the feed uploaded, and the device does not see it")
        XCTAssertEqual(try FeedState.load(FeedLayout(directory: hosted.path)).targetFiles.count, 3)

        // Made anew, lower versions: refused as a rollback.
        try serveHosted()
        try restoreDevice()
        _ = try anew(fixture, "lower", publishing: [releases[2]])
        await expectError(
            try await against(fixture, feed: "lower", hosted: "feed"),
            subject: fixture.directory.url("lower/timestamp.json").path,
            reason: "version 2 is below the hosted version 3: devices holding the hosted feed refuse it as a rollback")
        try upload(fixture.directory.url("lower"), over: hosted)
        do {
            let plan = try await device.check()
            XCTFail("the device took a rollback: \(plan)")
        } catch let error as FeedUpdateError {
            XCTAssertEqual(error.subject, "timestamp.json", "\(error)")
        }

        // Pulled, then published: taken, by a patch.
        try serveHosted()
        try restoreDevice()
        _ = try await pull(fixture, from: server.url("/"), fetcher: HTTPFetcher(), into: "pulled")
        let unchanged = try await against(fixture, feed: "pulled", hosted: "feed")
        XCTAssertTrue(unchanged.isUnchanged)
        try Feed(directory: fixture.directory.url("pulled").path, clock: fixture.clock).publish(
            releases[2], key: fixture.key, keySource: "test.key")
        let check = try await against(fixture, feed: "pulled", hosted: "feed")
        XCTAssertFalse(check.isUnchanged)
        XCTAssertEqual(check.timestampVersion, 3)
        try upload(fixture.directory.url("pulled"), over: hosted)
        let taken = try await device.update()
        XCTAssertEqual(taken.release?.userVersion, 3)
        XCTAssertTrue(taken.usesPatches)
    }

    func testVerifyAgainstNamesARootChainThatDoesNotContinueAndAHostedReleaseMissing() async throws {
        let (fixture, releases) = try hostedFeed()
        try fixture.publish(releases[2])
        // Higher versions, the same first root, but release 3 left out: devices on it get no patch.
        _ = try anew(fixture, "gap", publishing: [releases[1], releases[3], releases[4], releases[5]])
        let v3 = try XCTUnwrap(
            try FeedState.load(FeedLayout(directory: fixture.feedPath)).targetFiles.first {
                $0.path.hasPrefix("releases/") && (try? ReleaseFacts(of: $0))?.result.userVersion == 3
            })
        await expectError(
            try await against(fixture, feed: "gap", hosted: "feed"), subject: v3.path,
            reason: "the hosted release user_version 3 is not in this feed")
        // What a prune drops (the oldest releases) is no failure.
        _ = try await pull(
            fixture, from: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), fetcher: FileFetcher(),
            into: "pruned")
        let pruned = Feed(directory: fixture.directory.url("pruned").path, clock: fixture.clock)
        try pruned.publish(releases[3], key: fixture.key, keySource: "test.key")
        try pruned.prune(key: fixture.key, keySource: "test.key", keep: 1)
        let prunedCheck = try await against(fixture, feed: "pruned", hosted: "feed")
        XCTAssertFalse(prunedCheck.isUnchanged)
        // Rotated on the host to one key, here to another: the chains part at version 2.
        let hostedKey = Ed25519SigningKey()
        try fixture.feed.rotate(oldKey: fixture.key, oldKeySource: "old", newKey: hostedKey, newKeySource: "new")
        let rotated = try anew(fixture, "rotated", publishing: releases)
        try rotated.rotate(oldKey: fixture.key, oldKeySource: "old", newKey: Ed25519SigningKey(), newKeySource: "other")
        await expectError(
            try await against(fixture, feed: "rotated", hosted: "feed"),
            subject: fixture.directory.url("rotated/2.root.json").path,
            reason: "not the hosted 2.root.json: this feed's root chain does not continue the hosted one")
        // Not rotated here at all: its newest root is older than the hosted one.
        await expectError(
            try await against(fixture, feed: "gap", hosted: "feed"),
            subject: fixture.directory.url("gap/root.json").path,
            reason: "version 1 is below the hosted version 2")
    }
}
