import Foundation
import XCTest
@testable import VersionStampKit

/// XML plists are edited in place: the stamped file must equal a golden file byte for byte
/// (every byte outside the changed strings kept), and python3's plistlib must read it as the
/// original property list with only the stamped strings changed.
final class PlistGoldenFileTests: XCTestCase {
    /// Stamps `NAME.input.plist` into a temporary copy and compares it with `NAME.expected.plist`.
    private func assertGolden(_ name: String, version: String, mode: StampMode = .automatic(placeholder: "r0000"),
                              changed expectedPaths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let input = PlistTestSupport.fixtures.appendingPathComponent("\(name).input.plist")
        let copy = directory.appendingPathComponent("Info.plist")
        try FileManager.default.copyItem(at: input, to: copy)

        let plan = StampPlan(options: StampOptions(plists: [copy.path], mode: mode), context: PlistTestSupport.context(version))
        XCTAssertEqual(plan.errors, [], file: file, line: line)
        try plan.write()

        let stamped = try Data(contentsOf: copy)
        let expected = try PlistTestSupport.fixture("\(name).expected.plist")
        XCTAssertEqual(stamped, expected, "\(name): stamped bytes differ from the golden file", file: file, line: line)
        if stamped != expected {
            print(String(decoding: stamped, as: UTF8.self))
        }

        // Oracle: plistlib sees the same property list, only the stamped strings changed.
        let differences = try PlistTestSupport.plistlibDifferences(input, copy)
        XCTAssertEqual(differences.problems, [], file: file, line: line)
        XCTAssertEqual(Set(differences.changed.keys), Set(expectedPaths), file: file, line: line)
        let reported = Dictionary(uniqueKeysWithValues: plan.updates.flatMap(\.changes).map { ($0.keyPath.description, $0.newValue) })
        XCTAssertEqual(differences.changed, reported, "plistlib's new values differ from the reported ones", file: file, line: line)
    }

    func testTypicalInfoPlist() throws {
        try assertGolden("typical-info", version: "42", changed: ["CFBundleVersion"])
    }

    func testCRLFLineEndingsAreKept() throws {
        try assertGolden("crlf", version: "8", changed: ["CFBundleVersion"])
        let stamped = try PlistTestSupport.fixture("crlf.expected.plist")
        XCTAssertEqual(stamped.filter { $0 == 0x0A }.count, stamped.filter { $0 == 0x0D }.count)
    }

    func testByteOrderMarkIsKept() throws {
        try assertGolden("bom", version: "13", changed: ["CFBundleVersion"])
        XCTAssertTrue(try PlistTestSupport.fixture("bom.expected.plist").starts(with: [0xEF, 0xBB, 0xBF]))
    }

    func testCommentsDoctypeAndProcessingInstructionsAreKept() throws {
        // The placeholder appears only inside a comment, so this is key mode on CFBundleVersion.
        try assertGolden("comments-doctype", version: "5", changed: ["CFBundleVersion"])
    }

    func testEmptyStringElementsBothForms() throws {
        try assertGolden("empty-strings", version: "3.1",
                         mode: .keys([.bundleVersion, PlistKeyPath(components: ["CFBundleShortVersionString"]),
                                      PlistKeyPath(components: ["Spaced"])]),
                         changed: ["CFBundleVersion", "CFBundleShortVersionString", "Spaced"])
    }

    func testCharacterReferencesElsewhereAreKept() throws {
        try assertGolden("character-references", version: "2", changed: ["CFBundleVersion"])
    }

    func testNewValuesAreEscaped() throws {
        try assertGolden("escaping", version: "a&b <c> \"d\"", mode: .keys([PlistKeyPath(components: ["BuildLabel"])]),
                         changed: ["BuildLabel"])
    }

    func testNestedKeyPathIntoDictionaryAndArray() throws {
        try assertGolden("nested-key-path", version: "9",
                         mode: .keys([try PlistKeyPath(parsing: "Parent:Child:1"), try PlistKeyPath(parsing: ":Parent:Deep:Value")]),
                         changed: ["Parent:Child:1", "Parent:Deep:Value"])
    }

    func testPlaceholderInSeveralStrings() throws {
        try assertGolden("placeholder-several", version: "1234M",
                         changed: ["Version", "Label", "History:0", "History:2:r0000"])
    }

    func testEveryGoldenPairDiffersOnlyInsideStringElements() throws {
        // Independent of the editor: strip the <string> elements' contents from both files
        // with a regular expression in python; what remains must be identical.
        let names = try FileManager.default.contentsOfDirectory(atPath: PlistTestSupport.fixtures.path)
            .filter { $0.hasSuffix(".input.plist") }.map { String($0.dropLast(".input.plist".count)) }
        XCTAssertGreaterThanOrEqual(names.count, 9)
        let script = """
        import re, sys
        def skeleton(p):
            data = open(p, 'rb').read()
            return re.sub(rb'<string(\\s*/>|>.*?</string>)', b'<string/>', data, flags=re.S)
        print('same' if skeleton(sys.argv[1]) == skeleton(sys.argv[2]) else 'different')
        """
        for name in names {
            let output = try PlistTestSupport.python(script, [
                PlistTestSupport.fixtures.appendingPathComponent("\(name).input.plist").path,
                PlistTestSupport.fixtures.appendingPathComponent("\(name).expected.plist").path,
            ])
            XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "same", name)
        }
    }
}
