import XCTest
@testable import VersionStampKit

/// `{date}`: the calendar day in UTC, python3's datetime as the oracle (leap days, negative
/// times, far future).
final class UTCDateTests: XCTestCase {
    func testMatchesPython() throws {
        let times: [Int64] = [0, 1_700_000_000, 951_782_400, 4_107_542_399, -1, 1_234_567_890]
        let output = try PlistTestSupport.python("""
        import datetime, sys
        for t in sys.argv[1:]:
            print(datetime.datetime.fromtimestamp(int(t), datetime.timezone.utc).strftime('%Y%m%d'))
        """, times.map(String.init))
        XCTAssertEqual(times.map(UTCDate.day(of:)), output.split(separator: "\n").map(String.init))
    }
}
