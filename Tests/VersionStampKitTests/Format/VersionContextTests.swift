import XCTest
@testable import VersionStampKit

/// The build number: the count or the CI's number, plus the offset.
final class BuildNumberTests: XCTestCase {
    func testOffsetIsAdded() throws {
        XCTAssertEqual(try BuildNumber(offset: 1000).applied(to: 42), 1042)
        XCTAssertEqual(try BuildNumber(offset: -40).applied(to: 42), 2)
        XCTAssertEqual(try BuildNumber().applied(to: 0), 0)
    }

    func testNegativeOrOverflowingResultIsAnError() {
        XCTAssertThrowsError(try BuildNumber(offset: -43).applied(to: 42)) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .invalidBuildNumber)
        }
        XCTAssertThrowsError(try BuildNumber(offset: .max).applied(to: 1)) { error in
            XCTAssertTrue((error as? VersionStampError)?.message.contains("overflow") ?? false, "\(error)")
        }
    }

    func testTheVariableIsReadWhenSet() throws {
        let number = BuildNumber(environmentVariable: "CI_BUILD_NUMBER")
        XCTAssertEqual(try number.assignedNumber(in: ["CI_BUILD_NUMBER": "512"]), 512)
        XCTAssertEqual(try number.assignedNumber(in: ["CI_BUILD_NUMBER": "007"]), 7)
        XCTAssertNil(try number.assignedNumber(in: [:]))
        XCTAssertNil(try BuildNumber().assignedNumber(in: ["CI_BUILD_NUMBER": "512"]), "no variable named")
    }

    func testAVariableHoldingAnythingButAnIntegerIsAnError() {
        let number = BuildNumber(environmentVariable: "GITHUB_RUN_NUMBER")
        for value in ["", "12a", "-3", "+3", " 12", "1.5", "١٢", "99999999999999999999999"] {
            XCTAssertThrowsError(try number.assignedNumber(in: ["GITHUB_RUN_NUMBER": value]), value) { error in
                let error = error as? VersionStampError
                XCTAssertEqual(error?.code, .invalidBuildNumber)
                XCTAssertTrue(error?.message.contains("GITHUB_RUN_NUMBER") ?? false, "\(String(describing: error))")
            }
        }
    }

    func testTheCIsNumberReplacesTheCountInAContext() throws {
        let revision = RevisionInfo(
            count: 42, sha: "", short: "", isDirty: false, describe: "", tag: nil,
            distance: 42, branch: "main", commitTime: 0)
        let context = VersionContext(revision: revision, override: nil, buildNumber: BuildNumber(offset: 3))
        XCTAssertEqual(try context.render("{count}"), "45")
    }
}
