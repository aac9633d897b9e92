import Foundation
@testable import VersionStampKit
import XCTest

/// The raw content written for a changed string: only the token's bytes when possible,
/// otherwise the whole value escaped; values XML cannot hold are refused.
final class PlistXMLEditorTests: XCTestCase {
    private func stamp(_ content: String, token: String = "r0000", value: String) throws -> String {
        let document = "<plist><dict><key>K</key><string>\(content)</string></dict></plist>"
        let editor = try PlistXMLEditor(bytes: Array(document.utf8), path: "t.plist")
        guard case let .found(string) = editor.root.lookup(PlistKeyPath(components: ["K"])) else {
            XCTFail("no K")
            return ""
        }
        let newValue = string.value.replacingBytes(of: token, with: value)
        let output = String(
            decoding: try editor.applying([
                PlistStringEdit(slot: string.slot, newValue: newValue, placeholder: (token, value))
            ]), as: UTF8.self)
        let prefix = "<plist><dict><key>K</key><string>", suffix = "</string></dict></plist>"
        XCTAssertTrue(output.hasPrefix(prefix) && output.hasSuffix(suffix), output)
        return String(output.dropFirst(prefix.count).dropLast(suffix.count))
    }

    func testOnlyTheTokenBytesChangeWhenPossible() throws {
        XCTAssertEqual(
            try stamp("a &gt; r0000 &#169; &amp; r0000 > x", value: "12M"), "a &gt; 12M &#169; &amp; 12M > x")
        XCTAssertEqual(try stamp("r0000<!-- r0000 -->", value: "5"), "5<!-- r0000 -->")
    }

    func testFallsBackToTheEscapedValue() throws {
        // The token is written with a character reference: the whole value is rewritten.
        XCTAssertEqual(try stamp("r&#48;000 &amp; x", value: "7"), "7 &amp; x")
        XCTAssertEqual(try stamp("<![CDATA[a<r0000>]]>", value: "7"), "a&lt;7&gt;")
        XCTAssertEqual(try stamp("r0000", value: "a&b\r\n"), "a&amp;b&#13;\n")
    }

    func testControlCharactersAreRefused() {
        XCTAssertThrowsError(try stamp("r0000", value: "bell\u{7}")) { error in
            XCTAssertTrue("\(error)".contains("U+7"), "\(error)")
        }
    }

    func testScannerAndLibXML2MustAgree() throws {
        // Attributes holding '>' and quotes, comments with markup, CDATA: scanned ranges still match.
        let document = """
            <?xml version='1.0' encoding='utf-8'?>
            <plist version="1.0" note='a > b "c"'><dict><key a=">">K</key><!-- <string>fake</string> -->\
            <string><![CDATA[x]]>y</string></dict></plist>
            """
        let editor = try PlistXMLEditor(bytes: Array(document.utf8), path: "t.plist")
        guard case let .found(string) = editor.root.lookup(PlistKeyPath(components: ["K"])) else { return XCTFail() }
        XCTAssertEqual(string.value, "xy")
        let output = String(
            decoding: try editor.applying([PlistStringEdit(slot: string.slot, newValue: "z")]), as: UTF8.self)
        XCTAssertEqual(
            output, document.replacingOccurrences(of: "<string><![CDATA[x]]>y</string>", with: "<string>z</string>"))
    }
}

/// Plists are parsed without entity expansion, DTD loading or network access: a plist that
/// declares or uses an entity is refused, no other file is read, and malformed XML is an error
/// with its line that leaves the file untouched.
final class PlistSecurityTests: XCTestCase {
    private var directory: URL!
    private var secret: URL!
    private let secretText = "TOP-SECRET-7f3a9c"

    override func setUpWithError() throws {
        directory = try PlistTestSupport.temporaryDirectory(self)
        secret = directory.appendingPathComponent("secret.txt")
        try Data(secretText.utf8).write(to: secret)
    }

    /// Stamps `text` as a plist and returns the plan's errors; the file must be left byte-identical.
    private func stampErrors(
        _ text: String, mode: StampMode = .keys([.bundleVersion]),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [VersionStampError] {
        let plist = directory.appendingPathComponent("Info-\(UUID().uuidString).plist")
        try Data(text.utf8).write(to: plist)
        let plan = StampPlan(
            options: StampOptions(plists: [plist.path], mode: mode), context: PlistTestSupport.context("5"))
        XCTAssertTrue(plan.updates.isEmpty, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: plist), Data(text.utf8), file: file, line: line)
        for error in plan.errors {
            XCTAssertFalse(
                error.description.contains(secretText), "the secret leaked: \(error)", file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix(plist.path), error.description, file: file, line: line)
        }
        return plan.errors
    }

    func testExternalEntityIsRefusedAndNeverRead() throws {
        for reference in [
            "SYSTEM \"\(secret.path)\"", "SYSTEM \"file://\(secret.path)\"", "PUBLIC \"-//x//y\" \"\(secret.path)\"",
        ] {
            let errors = try stampErrors(
                """
                <?xml version="1.0"?>
                <!DOCTYPE plist [ <!ENTITY xxe \(reference)> ]>
                <plist version="1.0"><dict><key>CFBundleVersion</key><string>&xxe;</string></dict></plist>
                """)
            XCTAssertEqual(errors.count, 1)
            XCTAssertEqual(errors.first?.line, 2)
            XCTAssertTrue(errors.first?.message.contains("entity 'xxe'") ?? false, "\(errors)")
        }
    }

    func testExternalParameterEntityIsRefused() throws {
        let errors = try stampErrors(
            """
            <?xml version="1.0"?>
            <!DOCTYPE plist [ <!ENTITY % pe SYSTEM "\(secret.path)"> %pe; ]>
            <plist version="1.0"><dict><key>CFBundleVersion</key><string>1</string></dict></plist>
            """)
        XCTAssertTrue(errors.first?.message.contains("entity 'pe'") ?? false, "\(errors)")
        XCTAssertEqual(errors.first?.code, .entityDeclaration)
    }

    func testBillionLaughsIsRefusedQuickly() throws {
        var declarations = "<!ENTITY lol0 \"lol\">\n"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        let start = Date()
        let errors = try stampErrors(
            """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
            \(declarations)]>
            <plist version="1.0"><dict><key>CFBundleVersion</key><string>&lol9;</string></dict></plist>
            """)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.line, 3)
        XCTAssertTrue(errors.first?.message.contains("entities are refused") ?? false, "\(errors)")
    }

    func testExternalDTDIsNeverLoaded() throws {
        // An undeclared entity with a DOCTYPE naming an external DTD: libxml2 must not load the
        // DTD (it holds the secret), and the reference is an error.
        let errors = try stampErrors(
            """
            <?xml version="1.0"?>
            <!DOCTYPE plist SYSTEM "\(secret.path)">
            <plist version="1.0"><dict><key>CFBundleVersion</key><string>&secret;</string></dict></plist>
            """)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.line, 3)
    }

    func testMalformedXMLNamesTheLine() throws {
        let errors = try stampErrors(
            """
            <?xml version="1.0"?>
            <plist version="1.0">
            <dict>
            <key>CFBundleVersion</key>
            <string>1</strin>
            </dict>
            </plist>
            """)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.line, 5)
        XCTAssertTrue(errors.first?.description.contains(":5: error: malformed XML") ?? false, "\(errors)")
    }

    func testInvalidUTF8IsOneLineError() throws {
        let errors = try stampErrors(
            "<?xml version=\"1.0\"?>\n<plist><string>caf\u{E9}</string></plist>".replacingOccurrences(
                of: "\u{E9}", with: "\u{1}"))
        XCTAssertEqual(errors.count, 1)
        let plist = directory.appendingPathComponent("bad.plist")
        var bytes = Array("<?xml version=\"1.0\"?>\n<plist><string>caf".utf8)
        bytes += [0xFF]
        bytes += Array("</string></plist>\n".utf8)
        try Data(bytes).write(to: plist)
        let plan = StampPlan(options: StampOptions(plists: [plist.path]), context: PlistTestSupport.context("1"))
        XCTAssertEqual(plan.errors.count, 1)
        XCTAssertEqual(plan.errors.first?.line, 2)
        XCTAssertFalse(plan.errors.first?.description.contains("\n") ?? true, "\(plan.errors)")
    }

    func testNotAPropertyList() throws {
        var errors = try stampErrors("<html><body/></html>")
        XCTAssertTrue(errors.first?.message.contains("root element is <html>") ?? false, "\(errors)")
        XCTAssertEqual(errors.first?.code, .malformedPlist)
        errors = try stampErrors("<plist><dict><key>A</key></dict></plist>")
        XCTAssertTrue(errors.first?.message.contains("'A' has no value") ?? false, "\(errors)")
        errors = try stampErrors("<plist><dict><key>A</key><strin>x</strin></dict></plist>")
        XCTAssertTrue(errors.first?.message.contains("unexpected <strin>") ?? false, "\(errors)")
        errors = try stampErrors("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>x</string></plist>")
        XCTAssertTrue(errors.first?.message.contains("UTF-8") ?? false, "\(errors)")
        XCTAssertEqual(errors.first?.code, .unsupportedPlist)
    }

    func testScannerRefusesEntityReferencesOnItsOwn() {
        // Defence in depth: even without libxml2, the byte scanner never accepts an entity.
        let bytes = Array("<!DOCTYPE p [<!ENTITY e \"x\">]><p>&e;</p>".utf8)
        XCTAssertThrowsError(try PlistXMLScanner.scanDocument(bytes, path: "p.xml")) { error in
            XCTAssertEqual(error as? VersionStampError, .entityDeclaration(path: "p.xml", line: 1, name: "e"))
        }
        XCTAssertThrowsError(try PlistXMLScanner.scanDocument(Array("\n<p>\n&e;</p>".utf8), path: "p.xml")) { error in
            XCTAssertEqual(error as? VersionStampError, .entityDeclaration(path: "p.xml", line: 3, name: "e"))
        }
    }

    func testLibXML2LayerRefusesEntityDeclarationsOnItsOwn() {
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY xxe SYSTEM \"\(secret.path)\">\n]>\n<plist><string>&xxe;</string></plist>"
        XCTAssertThrowsError(try PlistLibXMLParser.parse(Array(text.utf8), url: "t.plist")) { error in
            XCTAssertEqual(error as? VersionStampError, .entityDeclaration(path: "t.plist", line: 3, name: "xxe"))
        }
    }
}

/// XML plists are edited in place: the stamped file must equal a golden file byte for byte
/// (every byte outside the changed strings kept), and python3's plistlib must read it as the
/// original property list with only the stamped strings changed.
final class PlistGoldenFileTests: XCTestCase {
    /// Stamps `NAME.input.plist` into a temporary copy and compares it with `NAME.expected.plist`.
    private func assertGolden(
        _ name: String, version: String, mode: StampMode = .automatic(placeholder: "r0000"),
        changed expectedPaths: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let directory = try PlistTestSupport.temporaryDirectory(self)
        let input = PlistTestSupport.fixtures.appendingPathComponent("\(name).input.plist")
        let copy = directory.appendingPathComponent("Info.plist")
        try FileManager.default.copyItem(at: input, to: copy)

        let plan = StampPlan(
            options: StampOptions(plists: [copy.path], mode: mode), context: PlistTestSupport.context(version))
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
        let reported = Dictionary(
            uniqueKeysWithValues: plan.updates.flatMap(\.changes).map { ($0.keyPath.description, $0.newValue) })
        XCTAssertEqual(
            differences.changed, reported, "plistlib's new values differ from the reported ones", file: file, line: line
        )
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
        try assertGolden(
            "empty-strings", version: "3.1",
            mode: .keys([
                .bundleVersion, PlistKeyPath(components: ["CFBundleShortVersionString"]),
                PlistKeyPath(components: ["Spaced"]),
            ]),
            changed: ["CFBundleVersion", "CFBundleShortVersionString", "Spaced"])
    }

    func testCharacterReferencesElsewhereAreKept() throws {
        try assertGolden("character-references", version: "2", changed: ["CFBundleVersion"])
    }

    func testNewValuesAreEscaped() throws {
        try assertGolden(
            "escaping", version: "a&b <c> \"d\"", mode: .keys([PlistKeyPath(components: ["BuildLabel"])]),
            changed: ["BuildLabel"])
    }

    func testNestedKeyPathIntoDictionaryAndArray() throws {
        try assertGolden(
            "nested-key-path", version: "9",
            mode: .keys([try PlistKeyPath(parsing: "Parent:Child:1"), try PlistKeyPath(parsing: ":Parent:Deep:Value")]),
            changed: ["Parent:Child:1", "Parent:Deep:Value"])
    }

    func testPlaceholderInSeveralStrings() throws {
        try assertGolden(
            "placeholder-several", version: "1234M",
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
            let output = try PlistTestSupport.python(
                script,
                [
                    PlistTestSupport.fixtures.appendingPathComponent("\(name).input.plist").path,
                    PlistTestSupport.fixtures.appendingPathComponent("\(name).expected.plist").path,
                ])
            XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "same", name)
        }
    }
}
