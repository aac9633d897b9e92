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
        XCTAssertEqual(PathResolution.display("inner.txt", namedIn: "schema.txt"), "inner.txt")
        XCTAssertEqual(PathResolution.display("../data/x.csv", namedIn: "schema/sub/in.txt"), "schema/data/x.csv")
        XCTAssertEqual(PathResolution.display("./a.csv", namedIn: "s/schema.txt"), "s/a.csv")
        XCTAssertEqual(PathResolution.display("../../up.csv", namedIn: "s/schema.txt"), "../up.csv")
        XCTAssertEqual(PathResolution.display("/abs/x.csv", namedIn: "s/schema.txt"), "/abs/x.csv")
    }
}
