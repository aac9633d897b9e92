import FeedClient
import XCTest

final class DownloadProgressTests: XCTestCase {
    func testFractionCompleted() {
        XCTAssertEqual(DownloadProgress(completedBytes: 25, totalBytes: 100).fractionCompleted, 0.25)
        XCTAssertEqual(DownloadProgress(completedBytes: 0, totalBytes: 0).fractionCompleted, 1)
    }
}
