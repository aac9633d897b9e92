import Foundation
import ShipyardTestSupport
import XCTest

/// FeedClient's availability table (``AppleURLLoadingAvailability``, and the DocC article that
/// shows it) is true to the sources: every Swift file under Sources/FeedClient and under
/// Sources/HTTPTransport (its HTTP client, where URLSession is called) is read, whatever its
/// folder, so a file added later is checked as soon as it exists (``AppleAPIAvailabilityTable``).
final class URLLoadingAvailabilityTests: XCTestCase {
    static let table = AppleAPIAvailabilityTable(
        library: "FeedClient", name: "AppleURLLoadingAvailability", apis: AppleURLLoadingAvailability.apis,
        recognised: AppleURLLoadingAvailability.recognised, sources: ["Sources/FeedClient", "Sources/HTTPTransport"],
        article: "Sources/FeedClient/FeedClient.docc/AppleAPIAvailability.md")

    func testEveryURLLoadingAPIFeedClientCallsIsInTheTable() throws {
        let problems = try Self.table.unlistedUses()
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testEveryAPIInTheTableIsCalledAndGuardedWhereNewer() throws {
        let problems = try Self.table.unguardedOrUnusedRows()
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// The article's table lists exactly the rows of ``AppleURLLoadingAvailability``, with the
    /// same versions.
    func testTheArticleShowsTheTable() throws {
        let (shown, expected) = try Self.table.articleRows()
        XCTAssertEqual(shown, expected, "\(Self.table.article) and AppleURLLoadingAvailability differ")
    }

    /// The scan recognises what it exists for: a newer call unguarded, and an unlisted one.
    func testTheScanCatchesAnUnguardedNewerCallAndAnUnlistedOne() throws {
        let file = SwiftSourceScanner.File(
            path: "Snippet.swift",
            code: SwiftSourceScanner.codeOnly(
                Array(
                    """
                    func fetch(_ session: URLSession, _ request: URLRequest) async throws {
                        let (bytes, _) = try await session.bytes(for: request)
                        if #available(iOS 15, macOS 12, tvOS 15, watchOS 8, *) {
                            _ = try await session.data(for: request)
                        }
                    }
                    """.utf8)))
        let declared = try SwiftSourceScanner.declaredPlatforms()
        let newer = AppleURLLoadingAvailability.asyncSession
        let bytes = try XCTUnwrap(AppleAPIAvailabilityTable.offsets(of: #"\.bytes\(\s*for:"#, in: file).first)
        let data = try XCTUnwrap(AppleAPIAvailabilityTable.offsets(of: #"\.data\(\s*for:"#, in: file).first)
        XCTAssertFalse(SwiftSourceScanner.isGuarded(bytes, in: file, required: newer, declared: declared))
        XCTAssertTrue(SwiftSourceScanner.isGuarded(data, in: file, required: newer, declared: declared))
        let listed = Set(
            AppleURLLoadingAvailability.apis.flatMap { AppleAPIAvailabilityTable.offsets(of: $0.pattern, in: file) })
        XCTAssertFalse(listed.contains(bytes), "bytes(for:) has no row: the scan must report it")
    }
}
