import FeedClient
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// The client against what `dbgen publish` writes (not the tests' own feed writer): bzip2
/// targets by default, zlib when asked, a feed of both; the bundled release is patched to the
/// newest one, whose content (sqlite3's dump) is the published file's.
final class PublishedFeedTests: XCTestCase {
    private func dbgen(_ arguments: [String], in directory: TemporaryDirectory) throws {
        let result = try BuiltProducts.run("dbgen", arguments, in: directory.url("."))
        XCTAssertEqual(result.status, 0, "dbgen \(arguments.joined(separator: " ")): \(result.stderrText)")
    }

    func testTheClientInstallsWhatDbgenPublishesInEitherCompression() async throws {
        let directory = try TemporaryDirectory("shipyard-published-feed", removedAfter: self)
        let bundled = directory.url("v1.sqlite")
        try FeedFixture.makeDatabase(bundled, rows: 3_000)
        var releases: [URL] = []
        for version in 2...3 {
            let file = directory.url("v\(version).sqlite")
            try FileManager.default.copyItem(at: version == 2 ? bundled : releases[0], to: file)
            _ = try Oracle.sqlite3Script(
                file.path,
                "UPDATE food SET kcal = kcal + 1 WHERE id % 40 = \(version); PRAGMA user_version = \(version);")
            releases.append(file)
        }
        try dbgen(["keys", "generate", "--out", "release.key"], in: directory)
        try dbgen(["feed", "init", "feed", "--key", "release.key"], in: directory)
        try dbgen(["publish", "feed", "v1.sqlite", "--key", "release.key"], in: directory)
        try dbgen(["publish", "feed", "v2.sqlite", "--key", "release.key", "--compression", "zlib"], in: directory)
        try dbgen(["publish", "feed", "v3.sqlite", "--key", "release.key"], in: directory)
        let server = try NginxServer(serving: directory.url("feed"))
        defer { server.stop() }
        let updates = directory.url("updates")
        let updater = FeedUpdater(
            feedURL: server.url("/"), bundledRoot: try Data(contentsOf: directory.url("feed/root.json")),
            bundledDatabasePath: bundled.path, updatesDirectory: updates.path, dataFormat: 1)

        let plan = try await updater.update()
        XCTAssertEqual(plan.release?.userVersion, 3)
        XCTAssertTrue(plan.usesPatches, "the bundled file is release 1: a patch, not the whole file")
        XCTAssertTrue(
            plan.steps.allSatisfy {
                $0.path.hasSuffix(".sqlpack.bz2") && $0.facts.compression == .bzip2 && $0.facts.packing == .sqlPack
            },
            "\(plan.steps.map(\.path))")
        let inEffect = try updater.updateInstaller.databaseInEffect()
        XCTAssertEqual(
            try FeedFixture.content(URL(fileURLWithPath: inEffect.path)), try FeedFixture.content(releases[1]))

        // A device on release 2, whose feed entry is zlib, and a feed whose newest is zlib too.
        let second = directory.url("updates-2")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let fromTwo = FeedUpdater(
            feedURL: server.url("/"), bundledRoot: try Data(contentsOf: directory.url("feed/root.json")),
            bundledDatabasePath: releases[0].path, updatesDirectory: second.path, dataFormat: 1)
        let checked = try await fromTwo.check()
        XCTAssertEqual(checked.release?.userVersion, 3)
        try await fromTwo.update(checked)
        let installed = try fromTwo.updateInstaller.databaseInEffect()
        XCTAssertEqual(
            try FeedFixture.content(URL(fileURLWithPath: installed.path)), try FeedFixture.content(releases[1]))
    }
}
