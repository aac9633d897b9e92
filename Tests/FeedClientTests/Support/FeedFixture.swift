import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// An app and a feed: the bundled database (release 1, published), a user database the update
/// must never touch, an updates directory, and the feed served by nginx on 127.0.0.1.
final class FeedFixture {
    let temporary: TemporaryDirectory
    let writer: FeedWriter
    /// The database the app bundles (user_version 1).
    let bundled: URL
    /// The user's own database (never opened by the update).
    let userDatabase: URL
    /// DIR.
    let updates: URL
    /// Release 1 (the bundled file; published unless the fixture was made without it).
    let first: DatabaseVersion
    private var server: NginxServer?

    init(rows: Int = 2_000, publishBundled: Bool = true, removedAfter test: XCTestCase) throws {
        temporary = try TemporaryDirectory("shipyard-feed-client", removedAfter: test)
        writer = try FeedWriter(in: temporary.url("feed"))
        bundled = temporary.url("App/food.sqlite")
        try FileManager.default.createDirectory(
            at: bundled.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.makeDatabase(bundled, rows: rows)
        userDatabase = temporary.url("Library/user.sqlite")
        try FileManager.default.createDirectory(
            at: userDatabase.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try Oracle.sqlite3Script(userDatabase.path, "CREATE TABLE favourite(id INTEGER PRIMARY KEY);")
        updates = temporary.url("Library/food-updates")
        first = DatabaseVersion(
            userVersion: 1, sha256: try ContentHash.sha256(ofFileAt: bundled.path))
        if publishBundled { try writer.publish(bundled) }
    }

    /// nginx serving the feed (started on first use).
    var nginx: NginxServer {
        get throws {
            if let server { return server }
            let started = try NginxServer(serving: writer.directory)
            server = started
            return started
        }
    }

    /// Stops nginx (a later use starts it again).
    func stopServer() {
        server?.stop()
        server = nil
    }

    /// The feed's URL on nginx.
    var feedURL: URL { get throws { try nginx.url("/") } }

    /// Scripts `server` to serve every file of the feed as a static file (strong ETag, Range,
    /// If-Range, If-None-Match), as nginx would; call again after publishing.
    func serve(on server: FaultInjectingHTTPServer) throws {
        let files = FileManager.default.enumerator(atPath: writer.directory.path)?.compactMap { $0 as? String } ?? []
        for file in files {
            let url = writer.directory.appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let data = try Data(contentsOf: url)
            server.script(file, .file(data, etag: "\"\(try ContentHash.sha256(ofFileAt: url.path).prefix(16))\""))
        }
    }

    /// A client of the feed at `url` (nginx's by default).
    func updater(
        url: URL? = nil, dataFormat: Int64 = 1, channels: Set<String> = [], root: Data? = nil,
        stallTimeout: TimeInterval = 10
    ) throws -> FeedUpdater {
        FeedUpdater(
            feedURL: try url ?? feedURL, bundledRoot: root ?? writer.bundledRoot, bundledDatabasePath: bundled.path,
            updatesDirectory: updates.path, dataFormat: dataFormat, channels: channels, stallTimeout: stallTimeout)
    }

    /// Release N: a copy of the bundled database with one row in 50 changed (`id % 50 = N`), `extra`
    /// SQL run, and `user_version` N (the fixture's file `vN.sqlite`).
    func release(_ version: Int64, sql extra: String = "") throws -> URL {
        let file = temporary.url("v\(version).sqlite")
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(at: bundled, to: file)
        _ = try Oracle.sqlite3Script(
            file.path,
            """
            UPDATE food SET kcal = kcal + \(version) WHERE id % 50 = \(version % 50);
            \(extra)
            PRAGMA user_version = \(version);
            """)
        return file
    }

    /// The database in effect, as UpdateInstaller chooses it: user_version and file SHA-256.
    func inEffect() throws -> DatabaseVersion {
        let inEffect = try UpdateInstaller(bundledPath: bundled.path, updatesDirectory: updates.path)
            .databaseInEffect()
        return DatabaseVersion(
            userVersion: inEffect.userVersion, sha256: try ContentHash.sha256(ofFileAt: inEffect.path))
    }

    /// What must not change when an update is refused: the bundled file, the user database,
    /// the database in effect and every file of DIR but the staging area and the rollout
    /// bucket, which the first run draws whatever follows, and the staged metadata a killed run
    /// leaves for the next to replace (by SHA-256).
    func state() throws -> [String: String] {
        var hashes: [String: String] = [:]
        for file in [bundled, userDatabase] { hashes[file.path] = try ContentHash.sha256(ofFileAt: file.path) }
        let inEffect = try self.inEffect()
        hashes["in effect"] = "\(inEffect.userVersion) \(inEffect.sha256)"
        let files = FileManager.default.enumerator(atPath: updates.path)?.compactMap { $0 as? String } ?? []
        for file in files
        where !file.hasPrefix(".feed/staging") && !file.hasPrefix(".feed/metadata.staged") && !file.hasSuffix(".lock")
            && file != ".feed/rollout-bucket"
        {
            var isDirectory: ObjCBool = false
            let path = updates.appendingPathComponent(file).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            hashes[file] = try ContentHash.sha256(ofFileAt: path)
        }
        return hashes
    }

    /// Runs an update that must fail; returns its error.
    func failure(
        _ updater: FeedUpdater, file: StaticString = #filePath, line: UInt = #line
    ) async -> FeedUpdateError? {
        do {
            let plan = try await updater.update()
            XCTFail("the update succeeded: \(plan)", file: file, line: line)
        } catch let error as FeedUpdateError {
            return error
        } catch {
            XCTFail("not a FeedUpdateError: \(error)", file: file, line: line)
        }
        return nil
    }

    /// Runs an update that must be refused, and checks that nothing changed: the files of
    /// ``state()`` are byte for byte as they were. Returns the error.
    func refused(
        _ updater: FeedUpdater, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> FeedUpdateError? {
        let before = try state()
        let error = await failure(updater, file: file, line: line)
        XCTAssertEqual(try state(), before, "nothing changed", file: file, line: line)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: updates.appendingPathComponent(".feed/metadata.staged").path),
            "no refused document kept", file: file, line: line)
        return error
    }

    /// A database of `rows` rows, user_version 1.
    static func makeDatabase(_ file: URL, rows: Int) throws {
        _ = try Oracle.sqlite3Script(
            file.path,
            """
            CREATE TABLE food(id INTEGER PRIMARY KEY, name TEXT NOT NULL, kcal REAL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO food SELECT i, 'food ' || i || ' ' || hex(randomblob(6)), i * 1.5 FROM n;
            PRAGMA user_version = 1;
            """)
    }
}

extension FeedFixture {
    /// The rows and user_version of a database (the content an update must produce).
    static func content(_ database: URL) throws -> String {
        try Oracle.sqlite3Script(database.path, "SELECT * FROM food ORDER BY id; PRAGMA user_version;")
    }

    /// The content of the database in effect.
    func contentInEffect() throws -> String {
        let inEffect = try UpdateInstaller(bundledPath: bundled.path, updatesDirectory: updates.path)
            .databaseInEffect()
        return try Self.content(URL(fileURLWithPath: inEffect.path))
    }

    /// Sets the device's rollout bucket (as if drawn so).
    func setBucket(_ value: Double) throws {
        let file = updates.appendingPathComponent(".feed/rollout-bucket")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("\(value)\n".utf8).write(to: file)
    }

    /// The names in the staging area.
    var staged: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: updates.appendingPathComponent(".feed/staging").path))
            ?? []).sorted()
    }
}
