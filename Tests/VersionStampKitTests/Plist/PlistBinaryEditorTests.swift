import Foundation
@testable import VersionStampKit
import XCTest

/// Binary plists (`bplist00`) are read and written back binary; plistlib creates the input and
/// checks the result.
final class PlistBinaryTests: XCTestCase {
    private func makeBinaryPlist(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("Info.plist")
        _ = try PlistTestSupport.python(
            """
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

        let plan = StampPlan(
            options: StampOptions(
                plists: [plist.path], mode: .keys([.bundleVersion, try PlistKeyPath(parsing: "Nested:List:0")])),
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
        let plan = StampPlan(
            options: StampOptions(plists: [plist.path], mode: .keys([.bundleVersion])),
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
        XCTAssertTrue(
            plan.errors.first?.description.hasPrefix("\(plist.path): error: malformed binary plist") ?? false,
            "\(plan.errors)")
    }
}

/// Binary plists are checked before Foundation parses them: swift-corelibs-foundation crashed
/// versionstamp on a set holding an array (a libFuzzer finding, Fuzz/Regressions/plist-editor).
/// Malformed object graphs must give a clear error; every plist plistlib writes must pass.
final class PlistBinaryValidatorTests: XCTestCase {
    /// Builds a bplist00 from raw objects (markers and payloads), 1-byte references and
    /// 2-byte offsets, with object `top` at the top.
    static func bplist(_ objects: [[UInt8]], top: Int = 0, referenceSize: UInt8 = 1) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableStart = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        func be64(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 2, referenceSize] + be64(objects.count) + be64(top) + be64(tableStart)
        return Data(bytes)
    }

    func assertRefused(_ data: Data, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try PlistDocument(data: data, path: "x.plist"), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("x.plist: error: malformed binary plist"), text, file: file, line: line)
            XCTAssertTrue(text.contains(message), "\(text) should say \(message)", file: file, line: line)
        }
    }

    func testFuzzerCrashInputIsRefused() throws {
        let regression = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Fuzz/Regressions/plist-editor/crash-set-holding-array")
        let input = try Data(contentsOf: regression).dropFirst() // byte 0 selects the fuzz mode
        XCTAssertThrowsError(try PlistDocument(data: Data(input), path: "x.plist"))
    }

    func testSetHoldingAnArrayIsRefused() {
        // 0: dict {"k": 1}, 1: "k", 2: set {3}, 3: array []
        assertRefused(Self.bplist([[0xD1, 1, 2], [0x51, 0x6B], [0xC1, 3], [0xA0]]), "holds a set")
    }

    func testArrayAsDictionaryKeyIsRefused() {
        // 0: dict {[]: "v"}, 1: array [], 2: "v"
        assertRefused(Self.bplist([[0xD1, 1, 2], [0xA0], [0x51, 0x76]]), "a dictionary key is not a string")
    }

    func testCycleIsRefused() {
        // 0: array [0]
        assertRefused(Self.bplist([[0xA1, 0]]), "contains itself")
    }

    func testDeepNestingIsRefused() {
        // n arrays, each holding the next; the last is empty.
        let depth = PlistBinaryValidator.maximumDepth + 10
        var objects: [[UInt8]] = []
        for index in 0..<depth {
            let next = index + 1
            objects.append([0xA1, UInt8(next >> 8), UInt8(next & 0xFF)])
        }
        objects.append([0xA0])
        assertRefused(Self.bplist(objects, referenceSize: 2), "nested deeper than")
    }

    func testUIDIsRefused() {
        assertRefused(Self.bplist([[0xD1, 1, 2], [0x51, 0x6B], [0x80, 0x01]]), "UID")
    }

    func testReferencesOutOfRangeAreRefused() {
        assertRefused(Self.bplist([[0xA1, 7]]), "outside the object table")
        var data = [UInt8](Self.bplist([[0x51, 0x6B]]))
        data[data.count - 1] = 0xFF // offset table start past the trailer
        assertRefused(Data(data), "out of range")
        assertRefused(Data(Self.bplist([[0x5F, 0x10, 0x7F, 0x41]])), "runs into the offset table")
    }

    func testTruncatedFileIsRefused() {
        let valid = Self.bplist([[0x51, 0x6B]])
        for length in [8, 20, valid.count - 1] {
            XCTAssertThrowsError(try PlistDocument(data: valid.prefix(length), path: "x.plist"), "length \(length)")
        }
    }

    /// Everything plistlib writes passes the check and reads back with the same strings.
    func testPlistlibOutputIsAccepted() throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let script = """
            import plistlib, sys, datetime
            shared = "shared string, long enough to need a length object " * 3
            values = [
              {"CFBundleVersion": "1", "n": [1, -1, 2**40, 2**63 + 5, -2**63, 0.5, True, False]},
              {"unicode": "中文 é 👍🏽", "data": bytes(range(40)), "date": datetime.datetime(2020, 1, 2, 3, 4, 5)},
              {"shared": [shared, shared, {"again": shared}], "empty": {}, "list": [], "s": ""},
              {"deep": [[[[[[{"k": "v"}]]]]]], "many": list(range(300))},
              [str(i) for i in range(40)],
            ]
            for i, value in enumerate(values):
                with open(f"{sys.argv[1]}/p{i}.plist", "wb") as f:
                    f.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
            """
        _ = try PlistTestSupport.python(script, [directory.path])
        for index in 0..<5 {
            let data = try Data(contentsOf: directory.appendingPathComponent("p\(index).plist"))
            XCTAssertNoThrow(try PlistBinaryValidator.validate([UInt8](data), path: "p\(index).plist"), "p\(index)")
            let document = try PlistDocument(data: data, path: "p\(index).plist")
            XCTAssertFalse(document.root.strings().isEmpty, "p\(index) strings")
        }
    }
}
