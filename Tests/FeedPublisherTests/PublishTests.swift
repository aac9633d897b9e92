import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// `publish`: python-tuf (the oracle) reads every feed it writes; its patches, run by sqlite3 on
/// a copy of their base, give the release's content; the same inputs give the same files.
final class PublishTests: XCTestCase {
    func testPythonTUFReadsEveryFeedPublishWritesAndEveryTargetMatches() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let emptyRead = try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory)
        XCTAssertEqual(emptyRead, ["1 1 1 1"])
        let v1 = try fixture.release("v1", version: 1)
        let v2 = try fixture.release("v2", version: 2, changedEvery: 100)
        let v3 = try fixture.release("v3", version: 3, changedEvery: 50, seed: "b")
        try fixture.publish(v1)
        try fixture.publish(v2, options: PublishOptions(channel: "beta", rollout: 0.25, dataFormat: .init(minimum: 2)))
        let summary = try fixture.publish(
            v3, options: PublishOptions(critical: true, dataFormat: .init(minimum: 1, maximum: 4)))
        XCTAssertEqual(summary.patches.map(\.kept), [true, true])
        XCTAssertEqual(summary.targetsVersion, 4)
        let lines = try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory)
        XCTAssertEqual(lines.first, "1 4 4 4")
        // 3 whole databases, patches 1→2, 1→3, 2→3: each downloaded and hash-checked by python-tuf.
        XCTAssertEqual(lines.count, 1 + 6, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.filter { $0.hasPrefix("releases/") }.count, 3)
        XCTAssertEqual(lines.filter { $0.hasPrefix("patches/") }.count, 3)
        let rollout = lines.first { $0.contains("\"channel\": \"beta\"") && $0.hasPrefix("releases/") }
        XCTAssertTrue(rollout?.contains("\"rollout\": \"0.25\"") ?? false, lines.joined(separator: "\n"))
        // The facts read back exactly as written.
        let targets = try fixture.targets()
        let sha3 = try ContentHashing.sha256(v3)
        let facts = try XCTUnwrap(ReleaseFacts(of: try XCTUnwrap(targets["releases/\(sha3).sqlite.bz2"])))
        XCTAssertEqual(facts.result, DatabaseVersion(userVersion: 3, sha256: sha3))
        XCTAssertEqual(facts.dataFormat, .init(minimum: 1, maximum: 4))
        XCTAssertTrue(facts.critical)
        let beta = try targets.values.compactMap { try ReleaseFacts(of: $0) }.filter {
            $0.channel == "beta" && $0.kind == .database
        }
        XCTAssertEqual(beta.map(\.rollout), [0.25])
        XCTAssertEqual(try fixture.verify().releases.map(\.userVersion), [3, 2, 1])
    }

    func testEveryPatchRunBySqlite3OnACopyOfItsBaseGivesTheReleasesContent() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let databases = [
            try fixture.release("v1", version: 1),
            try fixture.release("v2", version: 2, changedEvery: 40),
            try fixture.build(
                "v3",
                """
                CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, amount REAL);
                INSERT INTO t SELECT value, 'v' || value || ' food item', value * 0.25
                  FROM generate_series(1, 1990);
                CREATE INDEX t_name ON t(name);
                CREATE TABLE added(k TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;
                INSERT INTO added VALUES ('a', 1), ('b', -0.0);
                PRAGMA user_version = 7;

                """),
        ]
        for database in databases { try fixture.publish(database) }
        let byHash = Dictionary(uniqueKeysWithValues: try databases.map { (try ContentHashing.sha256($0), $0) })
        var applied = 0
        for (path, target) in try fixture.targets() {
            guard let facts = try ReleaseFacts(of: target), let base = facts.base else { continue }
            let blob = fixture.feedPath + "/" + target.storedName!
            let sql = try facts.decodedByPython(blob)
            XCTAssertTrue(
                sql.hasPrefix("-- dbgen diff base: user_version=\(base.userVersion) sha256=\(base.sha256)"), path)
            let copy = fixture.directory.url("copy-\(applied).sqlite").path
            try FileManager.default.copyItem(atPath: try XCTUnwrap(byHash[base.sha256]), toPath: copy)
            _ = try Oracle.sqlite3Script(copy, sql)
            XCTAssertEqual(
                try DatabaseContent.dump(copy), try DatabaseContent.dump(try XCTUnwrap(byHash[facts.result.sha256])),
                path)
            applied += 1
        }
        XCTAssertEqual(applied, 3)
    }

    func testAPatchNotSmallerThanTheWholeDatabaseIsLeftOut() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.publish(
            try fixture.build("v1", "CREATE TABLE t(x); INSERT INTO t VALUES (1); PRAGMA user_version = 1;\n"))
        // Every row new and random: the patch carries them all, the database compresses as well
        // (deflated: bzip2 codes the patch's hex a little tighter than the blobs' pages).
        let v2 = try fixture.build(
            "v2",
            """
            CREATE TABLE t(x); INSERT INTO t SELECT randomblob(64) FROM generate_series(1, 300);
            PRAGMA user_version = 2;

            """)
        let summary = try fixture.publish(v2, options: PublishOptions(compression: .zlib))
        XCTAssertEqual(summary.patches.count, 1)
        XCTAssertEqual(summary.patches.first?.kept, false)
        XCTAssertGreaterThanOrEqual(summary.patches[0].length, summary.databaseLength)
        XCTAssertEqual(try fixture.targets().keys.filter { $0.hasPrefix("patches/") }, [])
        XCTAssertEqual(try fixture.tree().keys.filter { $0.hasPrefix("targets/patches/") }, [])
        XCTAssertEqual(try fixture.verify().patchCount, 0)
    }

    func testSameInputsAndSourceDateEpochGiveIdenticalFeeds() throws {
        let fixture = try FeedFixture(self)
        fixture.clock = try FeedClock.current(environment: ["SOURCE_DATE_EPOCH": "\(Int(Date().timeIntervalSince1970))"]
        )
        try fixture.initialize()
        try fixture.publish(try fixture.release("v1", version: 1))
        let copy = fixture.directory.url("copy").path
        try FileManager.default.copyItem(atPath: fixture.feedPath, toPath: copy)
        let v2 = try fixture.release("v2", version: 2, changedEvery: 10)
        try fixture.publish(v2, options: PublishOptions(rollout: 0.5))
        try Feed(directory: copy, clock: fixture.clock).publish(
            v2, key: fixture.key, keySource: "k", options: PublishOptions(rollout: 0.5))
        let first = try fixture.tree()
        let other = DirectoryTree.files(under: copy)
        XCTAssertEqual(first.keys.sorted(), other.keys.sorted())
        for (name, data) in first { XCTAssertEqual(data, other[name], name) }
        XCTAssertTrue(first.keys.contains("2.targets.json"))
    }

    func testANewReleaseMustHaveAGreaterUserVersionAndARepublishIsANoOp() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let v2 = try fixture.release("v2", version: 2)
        try fixture.publish(v2)
        let before = try fixture.tree()
        let older = try fixture.release("older", version: 2, changedEvery: 3)
        XCTAssertThrowsError(try fixture.publish(older)) { error in
            let error = error as? FeedPublisherError
            XCTAssertEqual(error?.subject, older)
            XCTAssertTrue(
                error?.reason.contains("user_version 2 is not greater than") ?? false, "\(String(describing: error))")
        }
        XCTAssertTrue(try fixture.publish(v2).wasAlreadyPublished)
        XCTAssertThrowsError(try fixture.publish(v2, options: PublishOptions(channel: "beta"))) { error in
            XCTAssertTrue("\(error)".contains("already in the feed with other facts"), "\(error)")
        }
        XCTAssertEqual(try fixture.tree(), before)
    }

    func testTheAudienceSaysTheChannelRolloutAndDataFormatsTheFactsCarry() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let cases: [(PublishOptions, String)] = [
            (PublishOptions(), "every channel, every device (rollout 1), every data format"),
            (
                PublishOptions(channel: "beta", rollout: 0.25, dataFormat: .init(minimum: 2, maximum: 3)),
                "channel \"beta\" only, rollout 0.25, data format 2-3"
            ),
            (
                PublishOptions(rollout: 0.5, critical: true, dataFormat: .init(minimum: 4)),
                "every channel, every device at once (critical), data format 4 and later"
            ),
        ]
        for (index, (options, audience)) in cases.enumerated() {
            XCTAssertEqual(options.audience, audience)
            // What the feed's facts say of the release is what the line says.
            let database = try fixture.release("v\(index + 1)", version: index + 1, changedEvery: index + 2)
            try fixture.publish(database, options: options)
            let facts = try XCTUnwrap(
                try fixture.targets().values.compactMap { try ReleaseFacts(of: $0) }.first {
                    $0.kind == .database && $0.result.userVersion == Int64(index + 1)
                })
            XCTAssertEqual(facts.channel, options.channel)
            XCTAssertEqual(facts.rollout, options.rollout)
            XCTAssertEqual(facts.critical, options.critical)
            XCTAssertEqual(facts.dataFormat, options.dataFormat)
        }
    }

    func testTwoPublishesAtOnceRunOneAfterTheOther() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.publish(try fixture.release("v1", version: 1, rows: 20_000))
        let v2 = try fixture.release("v2", version: 2, rows: 20_000, changedEvery: 3)
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            outcomes.add(Result { try fixture.publish(v2).wasAlreadyPublished })
        }
        XCTAssertEqual(try outcomes.results.map { try $0.get() }.sorted { !$0 && $1 }, [false, true])
        XCTAssertEqual(try fixture.verify().targetsVersion, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.feedPath + "/.feed.lock"))
    }

    func testAKeyTheRootDoesNotNameIsRefusedAndNothingIsWritten() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let before = try fixture.tree()
        let stranger = Ed25519SigningKey()
        XCTAssertThrowsError(
            try fixture.feed.publish(try fixture.release("v1", version: 1), key: stranger, keySource: "env:OTHER")
        ) { error in
            let error = error as? FeedPublisherError
            XCTAssertEqual(error?.subject, "env:OTHER")
            XCTAssertTrue(error?.reason.contains("is not a targets key of root.json") ?? false)
        }
        XCTAssertEqual(try fixture.tree(), before)
    }
}

/// SHA-256 of a file through python's hashlib (the oracle, not the code under test).
enum ContentHashing {
    static func sha256(_ path: String) throws -> String {
        try Oracle.python3.output([
            "-c", "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", path,
        ])
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ReleaseFacts {
    /// The patch or database the blob at `path` stands for, decoded by python3 alone (its codec
    /// as these facts name it, then its own SQLPack reader for a packed patch), as text.
    func decodedByPython(_ path: String) throws -> String {
        String(
            decoding: try PythonTargetDecoder.decode(
                path, compression: compression.rawValue, packing: packing?.rawValue),
            as: UTF8.self)
    }
}

/// Results gathered from concurrent calls.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var results: [Result<Bool, Error>] = []

    func add(_ result: Result<Bool, Error>) {
        lock.lock()
        defer { lock.unlock() }
        results.append(result)
    }
}
