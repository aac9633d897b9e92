import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// `publish --compression`: a feed in either codec (or both: a release of each) is read by
/// python-tuf, decompressed by python's own bz2 and zlib to the bytes its facts declare, and
/// verified; bzip2, the default, makes a real `dbgen diff` patch smaller than zlib does.
final class CompressionTests: XCTestCase {
    /// Publishes three releases with `codecs[i]` each; checks the feed with the oracles.
    private func checkFeed(publishedWith codecs: [TargetCompression]) throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        for (index, compression) in codecs.enumerated() {
            let release = try fixture.release("v\(index + 1)", version: index + 1, changedEvery: 30 + index)
            try fixture.publish(release, options: PublishOptions(compression: compression))
        }
        let lines = try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory)
        XCTAssertEqual(lines.count, 1 + 6, lines.joined(separator: "\n"))
        var checked = 0
        for (path, target) in try fixture.targets() {
            let facts = try XCTUnwrap(try ReleaseFacts(of: target))
            let compression = codecs[Int(facts.result.userVersion) - 1]
            XCTAssertEqual(facts.compression, compression, path)
            XCTAssertTrue(path.hasSuffix("." + compression.fileExtension), path)
            // Patches are packed by default (their path says so), whole databases never.
            XCTAssertEqual(facts.packing, facts.kind == .patch ? .sqlPack : nil, path)
            XCTAssertEqual(path.hasSuffix(".sqlpack." + compression.fileExtension), facts.kind == .patch, path)
            let line = try XCTUnwrap(lines.first { $0.hasPrefix(path + " ") }, path)
            XCTAssertTrue(line.contains("\"compression\": \"\(compression.rawValue)\""), line)
            // python's own codec, chosen by the facts' name, and its own SQLPack reader give the
            // bytes the facts declare.
            let blob = fixture.feedPath + "/" + target.storedName!
            let sha256 = try PythonTargetDecoder.sha256(
                blob, compression: facts.compression.rawValue, packing: facts.packing?.rawValue)
            XCTAssertEqual(sha256, facts.uncompressedSHA256, path)
            checked += 1
        }
        XCTAssertEqual(checked, 6)
        let verification = try fixture.verify()
        XCTAssertEqual(verification.releases.map(\.userVersion), [3, 2, 1])
        XCTAssertEqual(verification.patchCount, 3)
    }

    func testAFeedOfEachCompressionIsReadByPythonTUFAndVerified() throws {
        try checkFeed(publishedWith: [.bzip2, .bzip2, .bzip2])
        try checkFeed(publishedWith: [.zlib, .zlib, .zlib])
    }

    func testAFeedWhoseEarlierReleasesAreDeflatedTakesBzip2Releases() throws {
        // The earlier releases are restored through their own codec to make the patches.
        try checkFeed(publishedWith: [.zlib, .zlib, .bzip2])
        try checkFeed(publishedWith: [.bzip2, .zlib, .bzip2])
    }

    func testBzip2MakesARealPatchSmallerThanZlib() throws {
        var lengths: [TargetCompression: (patch: Int64, database: Int64)] = [:]
        for compression in TargetCompression.allCases {
            let fixture = try FeedFixture(self)
            try fixture.initialize()
            try fixture.publish(try fixture.release("v1", version: 1, rows: 20_000))
            let summary = try fixture.publish(
                try fixture.release("v2", version: 2, rows: 20_000, changedEvery: 100),
                options: PublishOptions(compression: compression))
            let patch = try XCTUnwrap(summary.patches.first)
            XCTAssertTrue(patch.kept)
            lengths[compression] = (patch.length, summary.databaseLength)
        }
        let bzip2 = try XCTUnwrap(lengths[.bzip2]), zlib = try XCTUnwrap(lengths[.zlib])
        XCTAssertLessThan(bzip2.patch, zlib.patch, "\(lengths)")
        XCTAssertLessThan(bzip2.database, zlib.database, "\(lengths)")
    }

    func testARepublishInTheOtherCompressionIsTheSameRelease() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let v1 = try fixture.release("v1", version: 1)
        try fixture.publish(v1, options: PublishOptions(compression: .zlib))
        let before = try fixture.tree()
        XCTAssertTrue(try fixture.publish(v1).wasAlreadyPublished)
        XCTAssertEqual(try fixture.tree(), before)
    }

    func testAnUnknownCompressionIsRefusedByName() throws {
        XCTAssertEqual(try PublishOptions.compression("bzip2"), .bzip2)
        XCTAssertEqual(try PublishOptions.compression("zlib"), .zlib)
        XCTAssertThrowsError(try PublishOptions.compression("xz")) { error in
            XCTAssertEqual("\(error)", "--compression: error: \"xz\" is not zlib or bzip2")
        }
        let custom = try JSONParser().parse(
            Data(
                #"{"kind":"database","compression":"xz","uncompressed_length":1,"uncompressed_sha256":"\#(String(repeating: "a", count: 64))","result":{"user_version":1,"sha256":"\#(String(repeating: "a", count: 64))"}}"#
                    .utf8))
        XCTAssertThrowsError(try ReleaseFacts(json: custom, target: "releases/x.sqlite.xz")) { error in
            XCTAssertEqual(
                "\(error)", #"releases/x.sqlite.xz: custom.shipyard: compression: "xz" is not "zlib" or "bzip2""#)
        }
    }
}
