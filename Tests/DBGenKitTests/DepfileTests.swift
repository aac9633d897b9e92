import XCTest
@testable import DBGenKit

final class DepfileTests: XCTestCase {
    func testEscapesSpacesHashAndDollar() {
        XCTAssertEqual(Depfile.contents(target: "out db.sqlite", inputs: ["a b.txt", "c#$.csv"]),
                       "out\\ db.sqlite: a\\ b.txt \\\n  c\\#$$.csv\n")
    }
}
