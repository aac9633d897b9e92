import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// A length inside signed metadata sets the cap on the document it lists, but never past the
/// client's hard maximum (`UpdaterConfiguration.metadataHardMaximumLength`, 10 MB): a snapshot
/// that declares a huge targets document is refused before the document is fetched, so nothing
/// of it is read or parsed. Below the hard maximum the signed length is honoured, as python-tuf
/// honours it, even past the cap used when no length is given.
final class SignedLengthCapTests: XCTestCase {
    /// Publishes targets version 2, padded to `bytes` bytes by a target's `custom`, and a
    /// snapshot and timestamp that list it with its exact length.
    private func publishTargets(of bytes: Int, in repository: RepositoryFixture) throws -> Data {
        repository.targets.append(
            TargetFile(path: "padding.txt", data: Data("x".utf8), custom: .string(String(repeating: "p", count: bytes)))
        )
        let targets = try repository.publishTargets()
        repository.versions["snapshot"]! += 1
        let snapshot = Snapshot.signed(
            version: repository.versions["snapshot"]!, expires: repository.expiry("snapshot"),
            meta: ["targets.json": MetaFile(version: repository.versions["targets"]!, length: Int64(targets.count))])
        try repository.write(
            try Metadata.sign(snapshot, with: [repository.snapshotKey]),
            "\(repository.versions["snapshot"]!).snapshot.json")
        try repository.publishTimestamp()
        return targets
    }

    func testASignedLengthPastTheHardMaximumIsRefusedBeforeTheFetch() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let targets = try publishTargets(of: 10_000_100, in: repository)
        XCTAssertGreaterThan(targets.count, UpdaterConfiguration().metadataHardMaximumLength)

        let fetcher = RecordingFetcher()
        let updater = try Updater(
            metadataDirectory: client.metadataURL, metadataBaseURL: repository.metadataURL, fetcher: fetcher)
        XCTAssertThrowsError(try synchronously { try await updater.refresh() }) { error in
            XCTAssertEqual(error as? TUFError, .tooLarge(document: "targets.json", limit: 10_000_000))
        }
        XCTAssertEqual(fetcher.fetched.filter { $0.hasSuffix("targets.json") }, [], "the document was fetched")
        XCTAssertEqual(try client.version("targets"), 1)
    }

    func testASignedLengthBelowTheHardMaximumIsHonoured() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let targets = try publishTargets(of: 6_000_000, in: repository)
        XCTAssertGreaterThan(targets.count, UpdaterConfiguration().targetsMaximumLength)
        try client.refresh()
        XCTAssertEqual(MetadataStore(directory: client.metadataURL).load("targets"), targets, "version 2 is trusted")
    }
}

/// A file fetcher that records every URL it is asked for.
private final class RecordingFetcher: Fetcher, @unchecked Sendable {
    private let lock = NSLock()
    private var urls: [String] = []

    var fetched: [String] { lock.withLock { urls } }

    func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        lock.withLock { urls.append(url.absoluteString) }
        return try await FileFetcher().fetch(url, maximumLength: maximumLength)
    }
}
