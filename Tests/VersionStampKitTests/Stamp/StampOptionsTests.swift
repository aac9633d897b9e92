import XCTest
@testable import VersionStampKit

/// `--set KEYPATH=FORMAT`, and the mode the stamp options make of `--key`, `--set` and `--placeholder`.
final class KeyAssignmentTests: XCTestCase {
    func testParsesAtTheFirstEquals() throws {
        let assignment = try KeyAssignment(parsing: "CFBundleVersion={count}")
        XCTAssertEqual(assignment, KeyAssignment(.bundleVersion, format: "{count}"))
        XCTAssertEqual(try KeyAssignment(parsing: "Label=a=b").format, "a=b")
        XCTAssertEqual(
            try KeyAssignment(parsing: "Parent:Child:0=").keyPath, PlistKeyPath(components: ["Parent", "Child", "0"]))
        XCTAssertEqual(try KeyAssignment(parsing: "Parent:Child:0=").format, "")
    }

    func testWithoutEqualsIsAUsageError() {
        XCTAssertThrowsError(try KeyAssignment(parsing: "CFBundleVersion")) { error in
            let error = error as? VersionStampError
            XCTAssertEqual(error?.code, .usage)
            XCTAssertTrue(error?.message.contains("KEYPATH=FORMAT") ?? false, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try KeyAssignment(parsing: "A::B={count}")) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .invalidKeyPath)
            XCTAssertTrue((error as? VersionStampError)?.code.isUsage ?? false)
        }
    }

    func testModes() throws {
        XCTAssertEqual(
            try StampOptions.mode(keys: ["Label"], assignments: ["CFBundleVersion={count}"], placeholder: nil),
            .assignments([
                KeyAssignment(PlistKeyPath(components: ["Label"])), KeyAssignment(.bundleVersion, format: "{count}"),
            ]))
        XCTAssertEqual(
            try StampOptions.mode(keys: ["Label"], placeholder: nil), .keys([PlistKeyPath(components: ["Label"])]))
        XCTAssertThrowsError(try StampOptions.mode(keys: [], assignments: ["A=1"], placeholder: "r0000")) { error in
            XCTAssertEqual((error as? VersionStampError)?.code, .usage)
            XCTAssertTrue((error as? VersionStampError)?.message.contains("--set and --placeholder") ?? false)
        }
    }
}
