import FeedClient
import XCTest

/// Each codec's failures, one type: the description names the codec and the reason in the
/// codec's own words (what a device's error and `dbgen feed verify` print).
final class CompressionFailureTests: XCTestCase {
    func testEachReasonIsDescribedInItsCodecsWords() {
        let reasons: [CompressionFailure.Reason] = [
            .corrupt("incorrect header check"), .tooLarge(limit: 4096), .truncated, .trailingBytes, .status(-2),
        ]
        XCTAssertEqual(
            reasons.map { CompressionFailure(.zlib, $0).description },
            [
                "not a valid zlib stream (incorrect header check)",
                "inflates to more than the 4096 bytes its metadata declares",
                "the zlib stream ends early",
                "bytes follow the end of the zlib stream",
                "zlib failed (code -2)",
            ])
        XCTAssertEqual(
            reasons.map { CompressionFailure(.bzip2, $0).description },
            [
                "not a valid bzip2 stream (incorrect header check)",
                "decompresses to more than the 4096 bytes its metadata declares",
                "the bzip2 stream ends early",
                "bytes follow the end of the bzip2 stream",
                "libbz2 failed (code -2)",
            ])
        XCTAssertNotEqual(CompressionFailure(.zlib, .truncated), CompressionFailure(.bzip2, .truncated))
    }
}
