import Foundation
import ShipyardTestSupport
import XCTest

/// SyncClient's availability table (``AppleSyncAPIAvailability``, and the DocC article that
/// shows it) is true to the sources: every Swift file under Sources/SyncClient is read, so a
/// file added later is checked as soon as it exists (``AppleAPIAvailabilityTable``, the checks
/// FeedClient's table has too).
final class URLLoadingAvailabilityTests: XCTestCase {
    static let table = AppleAPIAvailabilityTable(
        library: "SyncClient", name: "AppleSyncAPIAvailability", apis: AppleSyncAPIAvailability.apis,
        recognised: AppleSyncAPIAvailability.recognised, sources: ["Sources/SyncClient"],
        article: "Sources/SyncClient/SyncClient.docc/AppleAPIAvailability.md")

    func testEveryAppleAPISyncClientCallsIsInTheTable() throws {
        let problems = try Self.table.unlistedUses()
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testEveryAPIInTheTableIsCalledAndGuardedWhereNewer() throws {
        let problems = try Self.table.unguardedOrUnusedRows()
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    func testTheArticleShowsTheTable() throws {
        let (shown, expected) = try Self.table.articleRows()
        XCTAssertEqual(shown, expected, "\(Self.table.article) and AppleSyncAPIAvailability differ")
    }
}
