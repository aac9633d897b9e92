import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Steps of the specification's client workflow that no attack test names: how far one refresh
/// follows the root chain (5.3.3), a timestamp of the trusted version (5.4.3.1), and the plain
/// names of a repository without consistent snapshots (5.3.12, 5.5.1, 5.6.1, 5.7.3). Each
/// checks the documents the updater asks for, in order.
final class WorkflowStepTests: XCTestCase {
    /// A fetcher over the fixture's files that remembers the last name of each URL it is asked for.
    final class Recorder: Fetcher, @unchecked Sendable {
        private let files = FileFetcher()
        private let lock = NSLock()
        private var asked: [String] = []

        var names: [String] { lock.withLock { asked } }
        func forget() { lock.withLock { asked.removeAll() } }

        func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
            lock.withLock { asked.append(url.lastPathComponent) }
            return try await files.fetch(url, maximumLength: maximumLength)
        }
    }

    private func updater(
        _ client: ClientFixture, _ recorder: Recorder, configuration: UpdaterConfiguration = UpdaterConfiguration()
    ) throws -> Updater {
        try Updater(
            metadataDirectory: client.metadataURL, metadataBaseURL: client.repository.metadataURL,
            targetBaseURL: client.repository.targetsURL, fetcher: recorder, configuration: configuration)
    }

    /// 5.3.3: at most `maximumRootRotations` new roots in one refresh; the next refresh goes on
    /// from the last one trusted.
    func testARefreshFollowsAtMostTheConfiguredNumberOfRoots() throws {
        let repository = try RepositoryFixture()
        for _ in 2...5 { try repository.publishRoot() }
        let client = try ClientFixture(repository)
        var configuration = UpdaterConfiguration()
        configuration.maximumRootRotations = 2
        let recorder = Recorder()
        let first = try updater(client, recorder, configuration: configuration)
        try synchronously { try await first.refresh() }
        XCTAssertEqual(recorder.names.prefix(3), ["2.root.json", "3.root.json", "timestamp.json"])
        XCTAssertEqual(try client.version("root"), 3)
        recorder.forget()
        let second = try updater(client, recorder, configuration: configuration)
        try synchronously { try await second.refresh() }
        XCTAssertEqual(recorder.names.prefix(3), ["4.root.json", "5.root.json", "timestamp.json"])
        XCTAssertEqual(try client.version("root"), 5)
    }

    /// 5.4.3.1: a timestamp of the version already trusted is nothing new: the refresh asks for
    /// the next root and the timestamp, and nothing else (the stored snapshot and targets stand).
    func testATimestampOfTheTrustedVersionIsNothingNew() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let before = try client.stored()
        let recorder = Recorder()
        let again = try updater(client, recorder)
        try synchronously { try await again.refresh() }
        XCTAssertEqual(recorder.names, ["2.root.json", "timestamp.json"])
        XCTAssertEqual(try client.stored(), before)
    }

    /// 5.3.12, 5.5.1, 5.6.1, 5.7.3: without consistent snapshots, snapshot and targets are
    /// `snapshot.json` and `targets.json`, and a target is its own path, not `HASH.NAME`.
    func testWithoutConsistentSnapshotsDocumentsAndTargetsHaveTheirPlainNames() throws {
        let repository = try RepositoryFixture()
        repository.consistentSnapshot = false
        try repository.publishRoot()
        let metadata = repository.metadataURL, targets = repository.targetsURL
        try FileManager.default.copyItem(
            at: metadata.appendingPathComponent("1.snapshot.json"), to: metadata.appendingPathComponent("snapshot.json")
        )
        try FileManager.default.copyItem(
            at: metadata.appendingPathComponent("1.targets.json"), to: metadata.appendingPathComponent("targets.json"))
        let target = repository.targets[0]
        try FileManager.default.moveItem(
            at: targets.appendingPathComponent("\(target.hashes[0].hex).file.txt"),
            to: targets.appendingPathComponent("file.txt"))
        let client = try ClientFixture(repository)
        try FileManager.default.createDirectory(at: client.targetsURL, withIntermediateDirectories: true)
        let recorder = Recorder()
        let updater = try updater(client, recorder)
        let found = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "file.txt") })
        let file = try synchronously { try await updater.download(found, to: client.targetsURL) }
        XCTAssertEqual(
            recorder.names,
            ["2.root.json", "3.root.json", "timestamp.json", "snapshot.json", "targets.json", "file.txt"])
        XCTAssertEqual(file.lastPathComponent, "file.txt")
        XCTAssertEqual(try Data(contentsOf: file), Data("the target's content\n".utf8))
    }
}
