import XCTest

/// The model SyncConvergenceTests checks the server and the devices against, on logs whose
/// answer is known: writes of one device between two syncs share one stamp, and the later of
/// them is the one that stands (a CI run found the model taking the first).
final class ConvergenceModelTests: XCTestCase {
    private let earlier = ConvergenceModel.Stamp(hlc: 100, device: [2])
    private let stamp = ConvergenceModel.Stamp(hlc: 200, device: [4])

    private func insert(_ key: String, _ stamp: ConvergenceModel.Stamp, body: String) -> ConvergenceModel.Op {
        .insert(key: key, stamp: stamp, values: ["title": "t", "body": body, "status": "s", "note": "n"], hits: 0)
    }

    func testAnUpdateWithTheStampOfItsDevicesInsertWins() {
        var model = ConvergenceModel()
        model.record(insert("c0", earlier, body: "t:body-d1"))
        model.record(insert("c0", stamp, body: "t:body-d3-2"))
        model.record(.update(key: "c0", stamp: stamp, column: "body", value: "t:body-d3-5"))
        XCTAssertEqual(model.expected("c0", churned: false).allowed["body"], ["t:body-d3-5"])
        XCTAssertEqual(model.expected("c0", churned: true).allowed["body"], ["t:body-d3-2", "t:body-d3-5"])
    }

    func testAnEarlierStampLosesWhateverItsPlaceInTheLog() {
        var model = ConvergenceModel()
        model.record(insert("c0", stamp, body: "t:later"))
        model.record(.update(key: "c0", stamp: earlier, column: "body", value: "t:earlier"))
        XCTAssertEqual(model.expected("c0", churned: false).allowed["body"], ["t:later"])
    }
}
