import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// A leaked main key's data does not outlive `dbgen feed rotate --reset-data`: the whole story
/// with the built `dbgen` as the publisher (and as the attacker, who holds the main key), nginx
/// serving the feed, and two devices, one running `FeedUpdater` (what an app links) and one
/// `dbgen fetch`. The leaked key publishes `user_version` 2147483647 and both devices install
/// it; the publisher rotates to a new key with the offline recovery key and `--reset-data`,
/// then publishes real data at `user_version` 2; both devices end on it. The attacker, holding
/// only the old key, cannot raise the epoch again: a root it signs is refused.
final class LeakedKeyTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var timestampWrites = 0

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("leaked-key", removedAfter: self)
    }

    @discardableResult
    private func dbgen(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> ProcessResult
    {
        let result = try BuiltProducts.run("dbgen", arguments, in: directory.url)
        XCTAssertEqual(result.status, 0, "dbgen \(arguments): \(result.stderrText)", file: file, line: line)
        // nginx's ETag is the modification time (seconds) and length: give each timestamp its own.
        timestampWrites += 1
        try? FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(timestampWrites))],
            ofItemAtPath: directory.url("feed/timestamp.json").path)
        return result
    }

    /// A copy of the bundled database with `sql` run and `user_version` set.
    private func database(_ name: String, userVersion: Int64, _ sql: String) throws -> URL {
        let file = directory.url(name)
        try FileManager.default.copyItem(at: directory.url("App/food.sqlite"), to: file)
        _ = try Oracle.sqlite3Script(file.path, sql + "\nPRAGMA user_version = \(userVersion);")
        return file
    }

    private func fetch(_ root: URL, updates: String, feedURL: URL) throws -> ProcessResult {
        try BuiltProducts.run(
            "dbgen",
            [
                "fetch", feedURL.absoluteString, "--root", root.path, "--bundled",
                directory.url("App/food.sqlite").path,
                "--updates", directory.url(updates).path,
            ])
    }

    private func inEffect(_ updates: String) throws -> String {
        let inEffect = try DatabaseUpdater(
            bundledPath: directory.url("App/food.sqlite").path, updatesDirectory: directory.url(updates).path
        ).databaseInEffect()
        return try FeedFixture.content(URL(fileURLWithPath: inEffect.path))
    }

    func testAfterARotationThatResetsDataEveryDeviceEndsOnRealData() async throws {
        try FileManager.default.createDirectory(at: directory.url("App"), withIntermediateDirectories: true)
        try FeedFixture.makeDatabase(directory.url("App/food.sqlite"), rows: 1_000)
        try dbgen(["keys", "generate", "--out", "main.key"])
        let recoveryKey = try dbgen(["keys", "generate", "--out", "recovery.key"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try dbgen(["keys", "generate", "--out", "new.key"])
        try dbgen(["feed", "init", "feed", "--key", "main.key", "--recovery-key", recoveryKey])
        try FileManager.default.copyItem(at: directory.url("feed/root.json"), to: directory.url("App/root.json"))
        try dbgen(["publish", "feed", "App/food.sqlite", "--key", "main.key"])
        let nginx = try NginxServer(serving: directory.url("feed"))
        defer { nginx.stop() }
        let feedURL = nginx.url("/")
        let app = FeedUpdater(
            feedURL: feedURL, bundledRoot: try Data(contentsOf: directory.url("App/root.json")),
            bundledDatabasePath: directory.url("App/food.sqlite").path,
            updatesDirectory: directory.url("device-a").path, dataFormat: 1)

        // The leaked key publishes data above anything real; both devices take it.
        let leaked = try database("leaked.sqlite", userVersion: 2_147_483_647, "UPDATE food SET name = 'leaked';")
        try dbgen(["publish", "feed", leaked.path, "--key", "main.key"])
        let taken = try await app.update()
        XCTAssertEqual(taken.release?.userVersion, 2_147_483_647)
        let fetched = try fetch(directory.url("App/root.json"), updates: "device-b", feedURL: feedURL)
        XCTAssertEqual(fetched.status, 0, fetched.stderrText)
        XCTAssertEqual(try inEffect("device-b"), try FeedFixture.content(leaked))

        // The publisher rotates with the offline recovery key, raising the data epoch, and
        // publishes the real data below the leaked user_version.
        try dbgen(["feed", "rotate", "feed", "--key", "recovery.key", "--new-key", "new.key", "--reset-data"])
        let real = try database("real.sqlite", userVersion: 2, "UPDATE food SET kcal = kcal + 1 WHERE id % 7 = 0;")
        try dbgen(["publish", "feed", real.path, "--key", "new.key"])
        let verified = try dbgen(["feed", "verify", "feed", "--root", "App/root.json"])
        XCTAssertTrue(verified.stdoutText.contains("data epoch 1"), verified.stdoutText)

        let back = try await app.update()
        XCTAssertTrue(back.resetsData)
        XCTAssertEqual(back.userVersionInEffect, 2_147_483_647)
        XCTAssertEqual(back.release?.userVersion, 2)
        XCTAssertEqual(try inEffect("device-a"), try FeedFixture.content(real))
        let refetched = try fetch(directory.url("App/root.json"), updates: "device-b", feedURL: feedURL)
        XCTAssertEqual(refetched.status, 0, refetched.stderrText)
        XCTAssertTrue(
            refetched.stderrText.hasPrefix(
                "dbgen: removed the update of an earlier data epoch (user_version 2147483647) and installed user_version 2"
            ),
            refetched.stderrText)
        XCTAssertEqual(try inEffect("device-b"), try FeedFixture.content(real))
        // A device that never ran, bundling the first root, walks to the new epoch and installs
        // the real data; and checking again finds nothing new.
        let fresh = try fetch(directory.url("App/root.json"), updates: "device-c", feedURL: feedURL)
        XCTAssertEqual(fresh.status, 0, fresh.stderrText)
        XCTAssertEqual(try inEffect("device-c"), try FeedFixture.content(real))
        let again = try await app.update()
        XCTAssertTrue(again.isNothingNew)

        // The attacker, holding only the old main key, signs a next root raising the epoch.
        let oldKey = try Ed25519SigningKey(
            rawRepresentation: try XCTUnwrap(
                Hex.decode(
                    String(decoding: try Data(contentsOf: directory.url("main.key")), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines))))
        let current = try Root(
            Metadata(data: try Data(contentsOf: directory.url("feed/root.json")), document: "root.json"))
        let next = current.header.version + 1
        let keyID = try oldKey.publicKey.keyID
        var signed = Root.signed(
            version: next, expires: Date().addingTimeInterval(86_400), keys: [keyID: oldKey.publicKey],
            roles: Dictionary(
                uniqueKeysWithValues: Root.topLevelRoles.map { ($0, RoleKeys(keyIDs: [keyID], threshold: 1)) }))
        signed[DataEpoch.rootMember] = .integer(2)
        try Metadata.sign(signed, with: [oldKey]).write(to: directory.url("feed/\(next).root.json"))
        let before = try inEffect("device-a")
        let refused = try await ExpectedFailure.failure(app)
        XCTAssertEqual(refused?.subject, "\(next).root.json")
        XCTAssertEqual(refused?.check, .signature)
        XCTAssertEqual(try inEffect("device-a"), before)
        let refusedFetch = try fetch(directory.url("App/root.json"), updates: "device-b", feedURL: feedURL)
        XCTAssertEqual(refusedFetch.status, 1)
        XCTAssertTrue(refusedFetch.stderrText.hasPrefix("\(next).root.json: error: "), refusedFetch.stderrText)
        XCTAssertEqual(try inEffect("device-b"), try FeedFixture.content(real))
    }
}

/// An update expected to fail, and its error.
enum ExpectedFailure {
    static func failure(_ updater: FeedUpdater, file: StaticString = #filePath, line: UInt = #line) async throws
        -> FeedUpdateError?
    {
        do {
            let plan = try await updater.update()
            XCTFail("the update succeeded: \(plan)", file: file, line: line)
            return nil
        } catch let error as FeedUpdateError {
            return error
        }
    }
}
