import DBGenKit
import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// A feed in a temporary directory, its key, and releases built by dbgen from small schema
/// scripts (as the app's build would).
final class FeedFixture {
    let directory: TemporaryDirectory
    let key = Ed25519SigningKey()
    var clock = FeedClock(now: Date())

    init(_ test: XCTestCase) throws {
        directory = try TemporaryDirectory("feed-publisher", removedAfter: test)
    }

    var feedPath: String { directory.url("feed").path }
    var feed: Feed { Feed(directory: feedPath, clock: clock) }
    var rootData: Data { FileManager.default.contents(atPath: feedPath + "/root.json") ?? Data() }

    /// Creates the feed, with the recovery keys given.
    func initialize(recoveryKeys: [PublicKey] = []) throws {
        try feed.initialize(key: key, recoveryKeys: recoveryKeys)
    }

    /// Builds `name.sqlite` from `script` with dbgen's builder.
    @discardableResult
    func build(_ name: String, _ script: String) throws -> String {
        try directory.write("\(name).txt", script)
        var options = BuildOptions(
            schema: directory.url("\(name).txt").path, output: directory.url("\(name).sqlite").path)
        options.force = true
        options.cacheDirectory = nil
        _ = try DatabaseBuilder.build(options)
        return directory.url("\(name).sqlite").path
    }

    /// A release: `rows` rows of table t with values seeded by `seed` where `id % every == 0`,
    /// and `user_version`.
    @discardableResult
    func release(_ name: String, version: Int, rows: Int = 2000, changedEvery every: Int = 0, seed: String = "a")
        throws -> String
    {
        let change =
            every > 0 ? "CASE WHEN value % \(every) = 0 THEN '\(seed)' || value ELSE 'v' || value END" : "'v' || value"
        return try build(
            name,
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, amount REAL);
            INSERT INTO t SELECT value, \(change) || ' food item', value * 0.25 FROM generate_series(1, \(rows));
            CREATE INDEX t_name ON t(name);
            PRAGMA user_version = \(version);

            """)
    }

    /// Publishes a database.
    @discardableResult
    func publish(_ database: String, options: PublishOptions = PublishOptions()) throws -> PublishSummary {
        try feed.publish(database, key: key, keySource: "test.key", options: options)
    }

    /// What the feed's verifier says (waited for, for synchronous tests).
    func verify(root: Data? = nil) throws -> FeedVerification {
        try synchronously { try await self.verification(root: root) }
    }

    /// What the feed's verifier says (for async tests, which must not wait on the task pool).
    func verification(root: Data? = nil) async throws -> FeedVerification {
        try await FeedVerifier(
            feedURL: URL(fileURLWithPath: feedPath, isDirectory: true), root: root ?? rootData, fetcher: FileFetcher()
        ).verify()
    }

    /// The live targets (through the publisher's own reading of the feed).
    func targets() throws -> [String: TargetFile] {
        try FeedState.load(FeedLayout(directory: feedPath)).targets.targets
    }

    /// Every file of the feed, relative path to bytes.
    func tree() throws -> [String: Data] { DirectoryTree.files(under: feedPath) }
}

/// python-tuf's own client (ngclient) reading a feed directory: refresh, then every target
/// listed downloaded and checked against its length and hashes. Prints the trusted versions and
/// each target path with its custom facts (canonical JSON) for the test to compare.
enum PythonTUFClient {
    static let script =
        PythonTUF.fileClientPreamble + """
            import json

            feed, client_dir, root_path = sys.argv[1:4]
            downloads = os.path.join(client_dir, "downloads")
            os.makedirs(downloads, exist_ok=True)
            with open(root_path, "rb") as f:
                root = f.read()
            updater = Updater(client_dir, f"file://{feed}/", downloads, f"file://{feed}/targets/",
                              fetcher=FileFetcher(), bootstrap=root)
            updater.refresh()
            trusted = updater._trusted_set
            print(trusted.root.version, trusted.timestamp.version, trusted.snapshot.version, trusted.targets.version)
            for path in sorted(trusted.targets.targets):
                info = updater.get_targetinfo(path)
                local = updater.download_target(info)
                print(path, info.length, json.dumps(info.unrecognized_fields.get("custom"), sort_keys=True))
            """

    /// Runs the client on the feed from `root`; throws with python's standard error on refusal.
    static func read(feed: String, root: Data, in directory: TemporaryDirectory) throws -> [String] {
        let client = directory.url("python-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
        let rootFile = client.appendingPathComponent("bundled-root.json")
        try root.write(to: rootFile)
        let result = try Oracle.python3.run(
            ["-c", script, feed, client.path, rootFile.path], environment: ["PYTHONIOENCODING": "utf-8"])
        guard result.status == 0 else { throw PythonRefused(stderr: result.stderrText) }
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// The trusted root's version and its data-epoch member as python-tuf keeps it
    /// (`unrecognized_fields`), after a refresh of the feed from `root`: `"VERSION EPOCH"`.
    static func rootEpoch(feed: String, root: Data, in directory: TemporaryDirectory) throws -> String {
        let client = directory.url("python-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
        let rootFile = client.appendingPathComponent("bundled-root.json")
        try root.write(to: rootFile)
        let script =
            PythonTUF.fileClientPreamble + """
                feed, client_dir, root_path = sys.argv[1:4]
                with open(root_path, "rb") as f:
                    root = f.read()
                updater = Updater(client_dir, f"file://{feed}/", client_dir, f"file://{feed}/targets/",
                                  fetcher=FileFetcher(), bootstrap=root)
                updater.refresh()
                trusted = updater._trusted_set.root
                print(trusted.version, trusted.unrecognized_fields.get("\(DataEpoch.rootMember)"))
                """
        return try PythonTUF.run(script, [feed, client.path, rootFile.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct PythonRefused: Error, CustomStringConvertible {
        let stderr: String
        var description: String { "python-tuf refused the feed: \(stderr)" }
    }
}

extension TargetFile {
    /// `targets/DIR/HASH.NAME`, where the publisher put the target's blob (nil: no sha256).
    var storedName: String? {
        hashes.first { $0.algorithm == "sha256" }.flatMap { try? FeedLayout.storedName(of: path, sha256: $0.hex) }
    }
}
