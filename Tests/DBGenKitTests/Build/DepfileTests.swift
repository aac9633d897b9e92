import XCTest
@testable import DBGenKit

final class DepfileTests: XCTestCase {
    func testEscapesSpacesHashAndDollar() {
        XCTAssertEqual(Depfile.contents(target: "out db.sqlite", inputs: ["a b.txt", "c#$.csv"]),
                       "out\\ db.sqlite: a\\ b.txt \\\n  c\\#$$.csv\n")
    }
}

final class PathResolutionTests: XCTestCase {
    func testDisplayPathsAreRelativeToTheNamingScriptAndNormalized() {
        XCTAssertEqual(PathResolution.display("inner.txt", inDisplayDirectory: ""), "inner.txt")
        XCTAssertEqual(PathResolution.display("../data/x.csv", inDisplayDirectory: "schema/sub"), "schema/data/x.csv")
        XCTAssertEqual(PathResolution.display("./a.csv", inDisplayDirectory: "s"), "s/a.csv")
        XCTAssertEqual(PathResolution.display("../../up.csv", inDisplayDirectory: "s"), "../up.csv")
        XCTAssertEqual(PathResolution.display("/abs/x.csv", inDisplayDirectory: "s"), "/abs/x.csv")
    }
}
