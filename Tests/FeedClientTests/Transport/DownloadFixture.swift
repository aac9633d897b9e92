import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// A file to serve, its target (length and SHA-256 computed by python3's hashlib, not by the
/// code under test) and a staging directory, for the download tests.
struct DownloadFixture {
    /// The file's bytes (seeded, so a failure reproduces).
    let data: Data
    /// The staging directory the download writes into.
    let staging: URL

    /// `count` seeded bytes and a fresh staging directory removed after `test`.
    init(count: Int, seed: UInt64 = 1, removedAfter test: XCTestCase) throws {
        var generator = SeededGenerator(seed: seed)
        data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        staging = try TemporaryDirectory("shipyard-staging", removedAfter: test).url("updates/staging")
    }

    /// The target of the fixture's bytes at `url`.
    func target(at url: URL) throws -> DownloadTarget {
        DownloadTarget(url: url, length: Int64(data.count), sha256: try Self.sha256(data))
    }

    /// The SHA-256 of `data` by python3's hashlib.
    static func sha256(_ data: Data) throws -> String {
        let result = try Oracle.python3.run(
            ["-c", "import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())"], input: data)
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The names in the staging directory, sorted (none when it is missing).
    var stagedNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).sorted()
    }

    /// The staged partial file of `target`, its validator file and its complete file.
    func partial(of target: DownloadTarget) -> URL { staging.appendingPathComponent(target.sha256 + ".partial") }
    func validator(of target: DownloadTarget) -> URL {
        staging.appendingPathComponent(target.sha256 + ".partial.validator")
    }

    /// The size of the file at `url` (0 when it is missing).
    static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    /// Runs the download and returns the error it throws, failing the test if it succeeds or
    /// throws anything but a ``DownloadError``.
    static func failure(
        _ downloader: ResumableDownloader, _ target: DownloadTarget, into staging: URL,
        file: StaticString = #filePath, line: UInt = #line
    ) async -> DownloadError? {
        do {
            let url = try await downloader.download(target, into: staging)
            XCTFail("the download succeeded: \(url.path)", file: file, line: line)
        } catch let error as DownloadError {
            return error
        } catch {
            XCTFail("not a DownloadError: \(error)", file: file, line: line)
        }
        return nil
    }

    /// Starts downloading `target` into the staging directory, cancels the task once `bytes`
    /// are staged, checks that it ends in ``DownloadError/cancelled(url:)`` with a partial file
    /// shorter than the whole, and returns the partial file's length.
    func cancel(
        _ target: DownloadTarget, afterReceiving bytes: Int64, test: XCTestCase,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Int {
        let reached = test.expectation(description: "\(bytes) bytes received")
        reached.assertForOverFulfill = false
        let staging = self.staging
        let download = Task {
            try await ResumableDownloader().download(target, into: staging) { progress in
                if progress.completedBytes >= bytes { reached.fulfill() }
            }
        }
        await test.fulfillment(of: [reached], timeout: 20)
        download.cancel()
        do {
            _ = try await download.value
            XCTFail("the cancelled download finished", file: file, line: line)
        } catch let error as DownloadError {
            XCTAssertEqual(error, .cancelled(url: target.url), file: file, line: line)
        }
        let staged = Self.size(partial(of: target))
        XCTAssertGreaterThanOrEqual(staged, Int(bytes), file: file, line: line)
        XCTAssertLessThan(staged, data.count, file: file, line: line)
        return staged
    }
}
