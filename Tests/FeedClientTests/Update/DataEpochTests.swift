import FeedClient
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// The data epoch (``DataEpoch``) as a device applies it: only the root keys raise it, a
/// release of another epoch than the trusted root's is never installed, a raised epoch removes
/// what was installed under the earlier one, and a root that lowers it is refused.
final class DataEpochTests: XCTestCase {
    func testAReleaseClaimingAnEpochAboveRootsIsIgnored() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        var options = FeedWriter.Options()
        options.dataEpoch = 1
        try fixture.writer.publish(try fixture.release(2), options)
        let plan = try await fixture.updater().update()
        XCTAssertTrue(plan.isNothingNew)
        XCTAssertEqual(try fixture.inEffect(), fixture.first)
    }

    func testAReleaseOfAnEarlierEpochIsNotInstalled() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        fixture.writer.dataEpoch = 1
        try fixture.writer.writeRoot()
        try fixture.writer.publish(try fixture.release(2)) // published under epoch 0
        let plan = try await fixture.updater().update()
        XCTAssertTrue(plan.isNothingNew)
        XCTAssertFalse(plan.resetsData, "nothing was installed to remove")
        XCTAssertEqual(try fixture.inEffect(), fixture.first)
    }

    func testARaisedEpochRemovesTheInstalledUpdateThenInstallsTheNewEpochsRelease() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(9))
        try await fixture.updater().update()
        XCTAssertEqual(try fixture.inEffect().userVersion, 9)

        fixture.writer.dataEpoch = 1
        try fixture.writer.writeRoot()
        try fixture.writer.writeMetadata()
        let reset = try await fixture.updater().update()
        XCTAssertTrue(reset.resetsData)
        XCTAssertTrue(reset.steps.isEmpty, "no release of epoch 1 yet")
        XCTAssertEqual(try fixture.inEffect(), fixture.first, "the bundled database is in effect again")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: fixture.updates.appendingPathComponent("food.sqlite").path))

        var options = FeedWriter.Options()
        options.dataEpoch = 1
        let v3File = try fixture.release(3)
        try fixture.writer.publish(v3File, options)
        let plan = try await fixture.updater().update()
        XCTAssertFalse(plan.resetsData)
        XCTAssertTrue(plan.usesPatches, "from the bundled database")
        XCTAssertEqual(try fixture.contentInEffect(), try FeedFixture.content(v3File))
    }

    func testARaisedEpochInstallsALowerUserVersionInPlaceOfTheInstalledUpdate() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2_147_483_647))
        try await fixture.updater().update()
        fixture.writer.dataEpoch = 1
        try fixture.writer.writeRoot()
        var options = FeedWriter.Options()
        options.dataEpoch = 1
        let v2File = try fixture.release(2)
        let v2 = try fixture.writer.publish(v2File, options)
        let plan = try await fixture.updater().update()
        XCTAssertTrue(plan.resetsData)
        XCTAssertEqual(plan.userVersionInEffect, 2_147_483_647)
        XCTAssertEqual(plan.release, v2)
        XCTAssertEqual(try fixture.contentInEffect(), try FeedFixture.content(v2File))
        let again = try await fixture.updater().update()
        XCTAssertTrue(again.isNothingNew)
    }

    func testARootThatLowersTheEpochIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        fixture.writer.dataEpoch = 2
        try fixture.writer.writeRoot()
        var options = FeedWriter.Options()
        options.dataEpoch = 2
        try fixture.writer.publish(try fixture.release(2), options)
        try await fixture.updater().update()
        XCTAssertEqual(try fixture.inEffect().userVersion, 2)
        fixture.writer.dataEpoch = 1
        try fixture.writer.writeRoot()
        try fixture.writer.writeMetadata()
        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "root.json")
        XCTAssertEqual(error?.check, .rollback)
        XCTAssertTrue(error?.reason.contains("data epoch 1 is below 2") ?? false, error?.description ?? "")
    }

    func testOnlyReleasesOfTheTrustedEpochAreReportedWithheld() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.setBucket(0.9)
        var earlier = FeedWriter.Options()
        earlier.rollout = 0.5
        try fixture.writer.publish(try fixture.release(9), earlier) // epoch 0, beyond the bucket
        fixture.writer.dataEpoch = 1
        try fixture.writer.writeRoot()
        var current = FeedWriter.Options()
        current.dataEpoch = 1
        let v2 = try fixture.writer.publish(try fixture.release(2), current)
        current.channel = "beta"
        let v3 = try fixture.writer.publish(try fixture.release(3), current)
        let plan = try await fixture.updater().check()
        XCTAssertEqual(plan.release, v2)
        XCTAssertEqual(
            plan.withheld, [WithheldRelease(release: v3, reasons: [.channel("beta", followed: [])])],
            "release 9 is of epoch 0: older whatever its user_version, and never offered, so never withheld")
    }

    func testAMalformedEpochIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        fixture.writer.dataEpoch = -1
        try fixture.writer.writeRoot()
        try fixture.writer.publish(try fixture.release(2))
        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "root.json")
        XCTAssertEqual(error?.check, .malformed)
        XCTAssertTrue(error?.reason.contains(DataEpoch.rootMember) ?? false, error?.description ?? "")
    }
}
