import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The resumable download against the faults nginx will not produce: each ends in its typed
/// error, leaves nothing in the staging directory but a partial file a later run can resume
/// (with its validator), and removes a partial file that can never match.
final class FaultDownloadTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!
    private let downloader = ResumableDownloader(stallTimeout: 5)

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testABodyCutShortIsResumedWithRangeAndIfRange() async throws {
        let fixture = try DownloadFixture(count: 200_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script(
            "db.gz", .cutShort(fixture.data, etag: "\"v1\"", after: 70_000),
            .file(fixture.data, etag: "\"v1\""))

        let error = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        guard case .transport(let url, _, _) = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(url, target.url)
        XCTAssertEqual(fixture.stagedNames, [target.sha256 + ".partial", target.sha256 + ".partial.validator"])
        XCTAssertEqual(DownloadFixture.size(fixture.partial(of: target)), 70_000)

        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertEqual(fixture.stagedNames, [target.sha256])
        XCTAssertEqual(server.requestCount(), 2)
        let resumed = server.requests[1]
        XCTAssertEqual(resumed.headers["range"], "bytes=70000-")
        XCTAssertEqual(resumed.headers["if-range"], "\"v1\"")
    }

    func testAResetMidFileKeepsThePartialFileForTheNextRun() async throws {
        let fixture = try DownloadFixture(count: 200_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .reset(fixture.data, etag: "\"v1\"", after: 50_000), .file(fixture.data, etag: "\"v1\""))

        let error = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        guard case .transport = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertLessThanOrEqual(DownloadFixture.size(fixture.partial(of: target)), 50_000)
        let names = fixture.stagedNames
        XCTAssertTrue(names.allSatisfy { $0.hasPrefix(target.sha256 + ".partial") }, "\(names)")

        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertEqual(server.requestCount(), 2)
    }

    func testErrorStatusesAreTypedAndKeepAStagedPartialFile() async throws {
        let fixture = try DownloadFixture(count: 100_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .status(404))
        let notFound = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(notFound, .httpStatus(url: target.url, status: 404, retryAfter: nil))
        XCTAssertEqual(fixture.stagedNames, [], "an empty partial file is not kept")

        server.script(
            "db.gz", .cutShort(fixture.data, etag: "\"v1\"", after: 30_000), .status(500),
            .status(503, retryAfter: "120"))
        _ = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        let serverError = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(serverError, .httpStatus(url: target.url, status: 500, retryAfter: nil))
        let unavailable = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(unavailable, .httpStatus(url: target.url, status: 503, retryAfter: "120"))
        XCTAssertTrue(unavailable?.description.contains("Retry-After: 120") ?? false)
        XCTAssertTrue(unavailable?.description.contains(target.url.absoluteString) ?? false)
        XCTAssertEqual(DownloadFixture.size(fixture.partial(of: target)), 30_000, "the partial file is untouched")
        XCTAssertEqual(server.requestCount(), 4)
    }

    func testATrickleStallsPastTheTimeoutAndASlowSteadyTransferDoesNot() async throws {
        let fixture = try DownloadFixture(count: 4_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        let impatient = ResumableDownloader(stallTimeout: 0.5)
        server.script("db.gz", .trickle(fixture.data, etag: "\"v1\"", bytesPerChunk: 1_000, interval: 3))
        let started = Date()
        let error = await DownloadFixture.failure(impatient, target, into: fixture.staging)
        XCTAssertEqual(error, .stalled(url: target.url, seconds: 0.5))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        XCTAssertEqual(DownloadFixture.size(fixture.partial(of: target)), 1_000)

        // 1.6 s in all, never 0.5 s without a byte: the timeout is for a stall, not the transfer.
        server.script("db.gz", .trickle(fixture.data, etag: "\"v1\"", bytesPerChunk: 250, interval: 0.1))
        let file = try await impatient.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertEqual(server.requests.last?.headers["range"], "bytes=1000-")
    }

    func testAWrongContentLengthIsAnErrorNeverAFile() async throws {
        let fixture = try DownloadFixture(count: 50_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        // Declared longer than sent: the response is cut short.
        server.script("db.gz", .body(fixture.data.prefix(20_000), declaredLength: 50_000))
        let short = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        guard case .transport = short else { return XCTFail("\(String(describing: short))") }
        // Declared shorter than the file: the response ends there.
        server.script("db.gz", .body(fixture.data, declaredLength: 40_000))
        let truncated = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(truncated, .truncated(url: target.url, received: 40_000, expectedLength: 50_000))
        XCTAssertEqual(fixture.stagedNames, [target.sha256 + ".partial"], "no validator: no resume, a restart")

        server.script("db.gz", .body(fixture.data, declaredLength: 50_000))
        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertNil(server.requests.last?.headers["range"])
    }

    func testBytesBeyondTheDeclaredLengthAreNeverRead() async throws {
        let fixture = try DownloadFixture(count: 50_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .body(fixture.data + Data(repeating: 0x41, count: 10_000), declaredLength: 50_000))
        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
    }

    func testNoMoreBytesThanTheMetadataSays() async throws {
        let fixture = try DownloadFixture(count: 50_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        let endless = fixture.data + Data(repeating: 0x41, count: 1_000_000)
        // Sent with no length: cut at the metadata's length; the whole-length prefix matches.
        server.script("db.gz", .body(endless, declaredLength: nil))
        let streamed = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(streamed, .tooManyBytes(url: target.url, expectedLength: 50_000))
        XCTAssertTrue(streamed?.description.contains("more bytes than the metadata says") ?? false)
        XCTAssertLessThanOrEqual(DownloadFixture.size(fixture.partial(of: target)), 50_000)
        try? FileManager.default.removeItem(at: fixture.staging)

        // Other bytes with no length: cut, and a whole-length partial that can never match is removed.
        server.script("db.gz", .body(Data(repeating: 0x42, count: 1_000_000), declaredLength: nil))
        let other = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(other, .tooManyBytes(url: target.url, expectedLength: 50_000))
        XCTAssertEqual(fixture.stagedNames, [])

        // Declared longer than the metadata says: refused before a byte is written.
        server.script("db.gz", .file(endless, etag: "\"big\""))
        let declared = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(declared, .tooManyBytes(url: target.url, expectedLength: 50_000))
        XCTAssertEqual(fixture.stagedNames, [])
    }

    func testAFileChangedBetweenTwoRangesRestartsFromZero() async throws {
        let fixture = try DownloadFixture(count: 100_000, removedAfter: self)
        let old = try DownloadFixture(count: 100_000, seed: 2, removedAfter: self).data
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .cutShort(old, etag: "\"old\"", after: 40_000), .file(fixture.data, etag: "\"new\""))
        _ = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertEqual(server.requests[1].headers["if-range"], "\"old\"", "asked for a range of the old file")
        XCTAssertEqual(server.requestCount(), 2)
    }

    func testAServerIgnoringIfRangeCannotSpliceTwoFiles() async throws {
        let fixture = try DownloadFixture(count: 100_000, removedAfter: self)
        let old = try DownloadFixture(count: 100_000, seed: 2, removedAfter: self).data
        let target = try fixture.target(at: server.url("db.gz"))
        server.script(
            "db.gz", .cutShort(old, etag: "\"old\"", after: 40_000),
            .file(fixture.data, etag: "\"new\"", honoursIfRange: false))
        _ = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        let spliced = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(spliced, .fileChanged(url: target.url, staged: "\"old\"", served: "\"new\""))
        XCTAssertEqual(fixture.stagedNames, [], "the old file's prefix is removed")
        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertNil(server.requests[2].headers["range"])
    }

    func testOtherBytesOfTheFullLengthAreRemoved() async throws {
        let fixture = try DownloadFixture(count: 100_000, removedAfter: self)
        let other = try DownloadFixture(count: 100_000, seed: 2, removedAfter: self).data
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .cutShort(fixture.data, etag: "\"v1\"", after: 40_000), .file(other, etag: "\"v2\""))
        _ = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        let error = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(
            error,
            .hashMismatch(
                url: target.url, expected: target.sha256,
                actual: try DownloadFixture.sha256(other)))
        XCTAssertEqual(fixture.stagedNames, [])
    }

    func testARangePastTheServersFileRestartsTheNextRun() async throws {
        let fixture = try DownloadFixture(count: 100_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script(
            "db.gz", .cutShort(fixture.data, etag: "\"v1\"", after: 60_000),
            .file(fixture.data.prefix(50_000), etag: "\"v1\""), .file(fixture.data, etag: "\"v1\""))
        _ = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        let error = await DownloadFixture.failure(downloader, target, into: fixture.staging)
        XCTAssertEqual(error, .rangeNotSatisfiable(url: target.url, offset: 60_000))
        XCTAssertEqual(fixture.stagedNames, [])
        _ = try await downloader.download(target, into: fixture.staging)
        XCTAssertNil(server.requests[2].headers["range"])
    }

    func testRedirectsToAnotherPathAreFollowed() async throws {
        for status in [301, 302, 307] {
            let fixture = try DownloadFixture(count: 30_000, seed: UInt64(status), removedAfter: self)
            let target = try fixture.target(at: server.url("latest-\(status)"))
            server.script("latest-\(status)", .redirect(status, to: "/targets/\(status).gz"))
            server.script("targets/\(status).gz", .file(fixture.data, etag: "\"\(status)\""))
            let file = try await downloader.download(target, into: fixture.staging)
            XCTAssertEqual(try Data(contentsOf: file), fixture.data, "\(status)")
            XCTAssertEqual(server.requestCount("latest-\(status)"), 1)
            XCTAssertEqual(server.requestCount("targets/\(status).gz"), 1)
        }
    }

    func testCancellationKeepsThePartialFileAndTheNextRunResumes() async throws {
        let fixture = try DownloadFixture(count: 100_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script(
            "db.gz", .trickle(fixture.data, etag: "\"v1\"", bytesPerChunk: 5_000, interval: 0.05),
            .file(fixture.data, etag: "\"v1\""))
        let staged = try await fixture.cancel(target, afterReceiving: 20_000, test: self)

        let progress = ProgressLog()
        let file = try await downloader.download(target, into: fixture.staging) { progress.append($0) }
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertEqual(server.requests[1].headers["range"], "bytes=\(staged)-")
        XCTAssertEqual(progress.values.first?.completedBytes, Int64(staged), "progress counts the staged bytes")
        XCTAssertEqual(progress.values.last, DownloadProgress(completedBytes: 100_000, totalBytes: 100_000))
    }

    #if canImport(Darwin) // the app's URLSession: Apple platforms (libcurl on Linux)
    func testTheAppsSessionConfigurationIsUsed() async throws {
        let fixture = try DownloadFixture(count: 10_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .file(fixture.data, etag: "\"v1\""))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-App": "shipyard-tests"]
        let appSession = URLSession(configuration: configuration)
        defer { appSession.invalidateAndCancel() }
        _ = try await ResumableDownloader(session: appSession).download(target, into: fixture.staging)
        XCTAssertEqual(server.requests.first?.headers["x-app"], "shipyard-tests")
    }
    #endif

    func testAVerifiedFileIsReturnedWithoutARequest() async throws {
        let fixture = try DownloadFixture(count: 10_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .file(fixture.data, etag: "\"v1\""))
        _ = try await downloader.download(target, into: fixture.staging)
        let file = try await downloader.download(target, into: fixture.staging)
        XCTAssertEqual(file, try ResumableDownloader.stagedFile(for: target, in: fixture.staging))
        XCTAssertEqual(server.requestCount(), 1)
    }
}

/// Progress values received on the download's queue.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [DownloadProgress] = []
    func append(_ value: DownloadProgress) { lock.withLock { received.append(value) } }
    var values: [DownloadProgress] { lock.withLock { received } }
}
