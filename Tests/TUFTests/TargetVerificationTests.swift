import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Targets are downloaded under their hash-prefixed names, capped at their length, and kept only when
/// their length and hashes match.
final class TargetVerificationTests: XCTestCase {
    private func servedFile(_ repository: RepositoryFixture) -> URL {
        let target = repository.targets[0]
        return repository.targetsURL.appendingPathComponent("\(target.hashes[0].hex).file.txt")
    }

    func testTargetIsDownloadedAndVerified() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        let updater = try client.updater()
        let target = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "file.txt") })
        let file = try synchronously { try await updater.download(target, to: client.targetsURL) }
        XCTAssertEqual(try Data(contentsOf: file), Data("the target's content\n".utf8))
        XCTAssertEqual(updater.cachedTarget(target, in: client.targetsURL), file)
        XCTAssertNil(try synchronously { try await updater.targetInfo(for: "missing.txt") })
    }

    func testTargetWithOtherBytesIsRefused() throws {
        let repository = try RepositoryFixture()
        let served = servedFile(repository)
        let tampered = Data("THE target's content\n".utf8)
        try tampered.write(to: served)
        let client = try ClientFixture(repository)
        let updater = try client.updater()
        let target = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "file.txt") })
        XCTAssertThrowsError(try synchronously { try await updater.download(target, to: client.targetsURL) }) { error in
            XCTAssertEqual(
                error as? TUFError,
                .lengthOrHashMismatch(
                    document: "file.txt",
                    reason: "sha256 is \(FileHash.sha256(tampered).hex), expected \(target.hashes[0].hex)"
                ))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: client.targetsURL.path), [])
    }

    func testTargetLongerThanItsLengthIsRefusedAtTheCap() throws {
        let repository = try RepositoryFixture()
        try Data(repeating: 0x41, count: 1_000_000).write(to: servedFile(repository))
        let client = try ClientFixture(repository)
        let updater = try client.updater()
        let target = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "file.txt") })
        XCTAssertThrowsError(try synchronously { try await updater.download(target, to: client.targetsURL) }) { error in
            XCTAssertEqual(error as? FetchError, .tooLarge(url: self.servedFile(repository).absoluteString, limit: 21))
        }
    }

    func testTargetShorterThanItsLengthIsRefused() throws {
        let repository = try RepositoryFixture()
        try Data("short".utf8).write(to: servedFile(repository))
        let client = try ClientFixture(repository)
        let updater = try client.updater()
        let target = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "file.txt") })
        XCTAssertThrowsError(try synchronously { try await updater.download(target, to: client.targetsURL) }) { error in
            XCTAssertEqual(
                error as? TUFError, .lengthOrHashMismatch(document: "file.txt", reason: "5 bytes, expected 21")
            )
        }
    }
}
