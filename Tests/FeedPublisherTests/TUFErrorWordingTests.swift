@testable import FeedPublisher
import TUF
import XCTest

/// `dbgen feed` words a TUF refusal as `SUBJECT: error: DETAIL` from the error's own subject
/// and detail: a document whose name holds ": " (a delegated role's) is named whole, where
/// splitting the description at its first ": " named half of it.
final class TUFErrorWordingTests: XCTestCase {
    func testARefusalNamesTheWholeDocument() {
        let error = FeedPublisherError(TUFError.rollback(document: "team: images.json", trusted: 5, received: 3))
        XCTAssertEqual(error.subject, "team: images.json")
        XCTAssertEqual(error.reason, "rollback: version 3 is below the trusted version 5")
    }
}
