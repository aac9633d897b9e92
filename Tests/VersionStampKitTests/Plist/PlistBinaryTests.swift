import Foundation
import XCTest
@testable import VersionStampKit

/// Binary plists (`bplist00`) are read and written back binary; plistlib creates the input and
/// checks the result.
final class PlistBinaryTests: XCTestCase {
    private func makeBinaryPlist(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("Info.plist")
        _ = try PlistTestSupport.python("""
        import datetime, plistlib, sys
        value = {
            'CFBundleVersion': '1',
            'CFBundleName': 'Foods & Co',
            'Label': 'build r0000 of r0000',
            'Count': 3, 'Big': 2**40, 'Negative': -7, 'Ratio': 0.25, 'Enabled': True, 'Disabled': False,
            'Blob': b'\\x00\\x01\\xff', 'When': datetime.datetime(2020, 5, 17, 12, 30, 0),
            'Nested': {'List': ['a', 1, {'Deep': 'r0000'}], 'Empty': {}},
        }
        with open(sys.argv[1], 'wb') as f: plistlib.dump(value, f, fmt=plistlib.FMT_BINARY)
        """, [url.path])
        return url
    }

    private func assertBinary(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try Data(contentsOf: url)
        XCTAssertTrue(data.starts(with: Array("bplist00".utf8)), "not binary any more", file: file, line: line)
    }

    func testKeyModeRoundTrip() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let plist = try makeBinaryPlist(in: directory)
        let original = directory.appendingPathComponent("original.plist")
        try FileManager.default.copyItem(at: plist, to: original)

        let plan = StampPlan(options: StampOptions(plists: [plist.path], mode: .keys([.bundleVersion, try PlistKeyPath(parsing: "Nested:List:0")])),
                             context: PlistTestSupport.context("42"))
        XCTAssertEqual(plan.errors, [])
        XCTAssertEqual(plan.updates.first?.changes.map(\.keyPath.description), ["CFBundleVersion", "Nested:List:0"])
        try plan.write()
        try assertBinary(plist)
        let differences = try PlistTestSupport.plistlibDifferences(original, plist)
        XCTAssertEqual(differences.problems, [])
        XCTAssertEqual(differences.changed, ["CFBundleVersion": "42", "Nested:List:0": "42"])
    }

    func testPlaceholderModeRoundTrip() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let plist = try makeBinaryPlist(in: directory)
        let original = directory.appendingPathComponent("original.plist")
        try FileManager.default.copyItem(at: plist, to: original)

        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("17"))
        XCTAssertEqual(plan.errors, [])
        try plan.write()
        try assertBinary(plist)
        let differences = try PlistTestSupport.plistlibDifferences(original, plist)
        XCTAssertEqual(differences.problems, [])
        XCTAssertEqual(differences.changed, ["Label": "build 17 of 17", "Nested:List:2:Deep": "17"])
    }

    func testUnchangedBinaryPlistIsNotRewritten() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let plist = try makeBinaryPlist(in: directory)
        let plan = StampPlan(options: StampOptions(plists: [plist.path], mode: .keys([.bundleVersion])),
                             context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors, [])
        XCTAssertTrue(plan.updates.isEmpty)
    }

    func testMalformedBinaryPlistIsAnError() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let plist = directory.appendingPathComponent("Broken.plist")
        try Data("bplist00 this is not really a binary plist".utf8).write(to: plist)
        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors.count, 1)
        XCTAssertTrue(plan.errors.first?.description.hasPrefix("\(plist.path): error: malformed binary plist") ?? false, "\(plan.errors)")
    }
}
