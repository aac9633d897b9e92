import FeedClient
import TUF
import Foundation
import ShipyardTestSupport
import XCTest

/// Which releases a client is offered: its rollout bucket (kept in the updates directory),
/// critical releases that skip the rollout, channels, and the data-format gate.
final class ReleaseGateTests: XCTestCase {
    func testTheRolloutBucketIsDrawnOnceAndKept() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        _ = try await fixture.updater().check()
        let file = fixture.updates.appendingPathComponent(".feed/rollout-bucket")
        let text = try String(contentsOf: file, encoding: .utf8)
        let bucket = try XCTUnwrap(Double(text.trimmingCharacters(in: .newlines)))
        XCTAssertTrue((0..<1).contains(bucket))
        _ = try await fixture.updater().check()
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), text, "created once")
    }

    func testAReleaseOutsideTheRolloutIsNotOfferedUnlessCritical() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.setBucket(0.6)
        var options = FeedWriter.Options()
        options.rollout = 0.5
        let v2 = try fixture.writer.publish(try fixture.release(2), options)
        let plan = try await fixture.updater().update()
        XCTAssertTrue(plan.isNothingNew, "bucket 0.6 is not below rollout 0.5")
        XCTAssertEqual(plan.withheld, [WithheldRelease(release: v2, reasons: [.rollout(fraction: 0.5, bucket: 0.6)])])
        XCTAssertEqual(
            plan.withheld.first?.reasons.first?.description,
            "rollout 0.5 (the fraction of devices offered it), and this device's bucket is 0.6, not below it")
        XCTAssertEqual(try fixture.inEffect().userVersion, 1)

        options.rollout = 0.7
        let v3 = try fixture.writer.publish(try fixture.release(3), options)
        let reached = try await fixture.updater().update()
        XCTAssertEqual(reached.release, v3, "bucket 0.6 is below rollout 0.7")
        XCTAssertEqual(reached.withheld, [], "release 2 is older than the one installed")

        options.rollout = 0.1
        options.critical = true
        let v4 = try fixture.writer.publish(try fixture.release(4), options)
        let critical = try await fixture.updater().update()
        XCTAssertEqual(critical.release, v4, "a critical release skips the rollout")
    }

    func testAChannelsReleaseIsOnlyForClientsFollowingIt() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        var options = FeedWriter.Options()
        options.channel = "beta"
        let v2 = try fixture.writer.publish(try fixture.release(2), options)
        let everyone = try await fixture.updater().update()
        XCTAssertTrue(everyone.isNothingNew)
        XCTAssertEqual(everyone.withheld, [WithheldRelease(release: v2, reasons: [.channel("beta", followed: [])])])
        XCTAssertEqual(
            everyone.withheld.first?.reasons.first?.description,
            "channel \"beta\", which this app does not follow (it follows no channel)")
        let other = try await fixture.updater(channels: ["nightly"]).update()
        XCTAssertTrue(other.isNothingNew)
        XCTAssertEqual(
            other.withheld.first?.reasons.first?.description,
            "channel \"beta\", which this app does not follow (it follows \"nightly\")")
        let beta = try await fixture.updater(channels: ["beta"]).update()
        XCTAssertEqual(beta.release, v2)
    }

    func testAnAppNeverInstallsDataOfAFormatItCannotRead() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        var options = FeedWriter.Options()
        options.dataFormat = .init(minimum: 2, maximum: 3)
        let v2 = try fixture.writer.publish(try fixture.release(2), options)
        for format: Int64 in [1, 4] {
            let plan = try await fixture.updater(dataFormat: format).update()
            XCTAssertTrue(plan.isNothingNew, "data format \(format)")
            XCTAssertEqual(
                plan.withheld,
                [WithheldRelease(release: v2, reasons: [.dataFormat(.init(minimum: 2, maximum: 3), app: format)])])
            XCTAssertEqual(
                plan.withheld.first?.reasons.first?.description,
                "data format 2-3, and this app reads data format \(format)")
            XCTAssertEqual(try fixture.inEffect().userVersion, 1)
        }
        let plan = try await fixture.updater(dataFormat: 2).update()
        XCTAssertEqual(plan.release, v2)
    }

    func testACheckSaysWhichNewerReleasesAreWithheldAndEveryReason() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.setBucket(0.9)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        var options = FeedWriter.Options()
        options.channel = "beta"
        options.dataFormat = .init(minimum: 4)
        options.rollout = 0.25
        let v3 = try fixture.writer.publish(try fixture.release(3), options)
        options.rollout = 0.5
        options.critical = true
        let v4 = try fixture.writer.publish(try fixture.release(4), options)
        let plan = try await fixture.updater().check()
        XCTAssertEqual(plan.release, v2, "the newest release offered")
        XCTAssertEqual(
            plan.withheld,
            [
                WithheldRelease(
                    release: v4, reasons: [.channel("beta", followed: []), .dataFormat(.init(minimum: 4), app: 1)]),
                WithheldRelease(
                    release: v3,
                    reasons: [
                        .channel("beta", followed: []), .dataFormat(.init(minimum: 4), app: 1),
                        .rollout(fraction: 0.25, bucket: 0.9),
                    ]),
            ], "newest first; a critical release skips the rollout")
        XCTAssertEqual(
            plan.withheld.first?.reasons.last?.description, "data format 4 and later, and this app reads data format 1")
        let beta = try await fixture.updater(dataFormat: 4, channels: ["beta"]).check()
        XCTAssertEqual(beta.release, v4)
        XCTAssertEqual(beta.withheld, [])
        try await fixture.updater().update(plan)
        let after = try await fixture.updater().check()
        XCTAssertTrue(after.isNothingNew)
        XCTAssertEqual(after.withheld.map(\.release), [v4, v3], "still withheld, and still said")
    }

    func testAPatchChainNeverPassesThroughDataTheAppCannotRead() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        var options = FeedWriter.Options()
        options.dataFormat = .init(minimum: 5)
        try fixture.writer.publish(try fixture.release(2), options)
        options.dataFormat = nil
        options.patchesFrom = 1
        let v3 = try fixture.writer.publish(try fixture.release(3), options)
        let plan = try await fixture.updater().update()
        XCTAssertEqual(plan.release, v3)
        XCTAssertFalse(plan.usesPatches, "the only chain passes through release 2 (data format 5+): the whole file")
        XCTAssertEqual(try fixture.inEffect(), v3)
    }

    func testATargetInACompressionOrPackingThisClientDoesNotReadIsSkippedForOneItReads() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
        let facts = try XCTUnwrap(try ReleaseFacts(of: patch))
        // A newer publisher's patches beside the ones this client reads: tiny, so they would
        // be chosen if they were read.
        for (name, member, value) in [("zstd", "compression", "zstd"), ("pack9", "packing", "sqlpack9")] {
            guard case .object(var members) = facts.json else { return XCTFail("facts are an object") }
            members[member] = .string(value)
            let custom = JSONValue.object(JSONObject([(ReleaseFacts.member, .object(members))]))
            let unknown = TargetFile(
                path: "patches/\(fixture.first.sha256)-\(v2.sha256).\(name)", data: Data("x".utf8), custom: custom)
            XCTAssertThrowsError(try ReleaseFacts(of: unknown)) { error in
                XCTAssertEqual((error as? ReleaseFactsError)?.isUnknownEncoding, true, "\(error)")
            }
            try fixture.writer.addTarget(unknown.path, blob: Data("x".utf8), custom: custom)
        }
        try fixture.writer.writeMetadata()
        let plan = try await fixture.updater().update()
        XCTAssertEqual(plan.release, v2)
        XCTAssertEqual(plan.steps.map(\.path), [patch.path], "the patch it reads, not the smaller ones it cannot")
        XCTAssertEqual(try fixture.inEffect().userVersion, 2)
    }

    func testPackingIsAPatchsFactAndIsReadBack() throws {
        let sha = String(repeating: "a", count: 64)
        let patch = ReleaseFacts(
            kind: .patch, compression: .bzip2, packing: .sqlPack, uncompressedLength: 1, uncompressedSHA256: sha,
            base: .init(userVersion: 1, sha256: sha), result: .init(userVersion: 2, sha256: sha))
        XCTAssertEqual(try ReleaseFacts(json: patch.json, target: "p"), patch)
        XCTAssertEqual(try ReleaseFacts(json: patch.json, target: "p").encoding.patchExtension, "sqlpack.bz2")
        var database = patch
        database.kind = .database
        database.base = nil
        XCTAssertThrowsError(try ReleaseFacts(json: database.json, target: "d")) { error in
            XCTAssertEqual((error as? ReleaseFactsError)?.reason, "packing: present for a whole database")
            XCTAssertEqual((error as? ReleaseFactsError)?.isUnknownEncoding, false)
        }
    }
}
