import Foundation
import XCTest
@testable import VersionStampKit

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
    private func stampErrors(_ text: String, mode: StampMode = .keys([.bundleVersion]),
                             file: StaticString = #filePath, line: UInt = #line) throws -> [VersionStampError] {
        let plist = directory.appendingPathComponent("Info-\(UUID().uuidString).plist")
        try Data(text.utf8).write(to: plist)
        let plan = StampPlan(options: StampOptions(plists: [plist.path], mode: mode), context: PlistTestSupport.context("5"))
        XCTAssertTrue(plan.updates.isEmpty, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: plist), Data(text.utf8), file: file, line: line)
        for error in plan.errors {
            XCTAssertFalse(error.description.contains(secretText), "the secret leaked: \(error)", file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix(plist.path), error.description, file: file, line: line)
        }
        return plan.errors
    }

    func testExternalEntityIsRefusedAndNeverRead() throws {
        for reference in ["SYSTEM \"\(secret.path)\"", "SYSTEM \"file://\(secret.path)\"", "PUBLIC \"-//x//y\" \"\(secret.path)\""] {
            let errors = try stampErrors("""
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
        let errors = try stampErrors("""
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
        let errors = try stampErrors("""
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
        let errors = try stampErrors("""
        <?xml version="1.0"?>
        <!DOCTYPE plist SYSTEM "\(secret.path)">
        <plist version="1.0"><dict><key>CFBundleVersion</key><string>&secret;</string></dict></plist>
        """)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.line, 3)
    }

    func testMalformedXMLNamesTheLine() throws {
        let errors = try stampErrors("""
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
        let errors = try stampErrors("<?xml version=\"1.0\"?>\n<plist><string>caf\u{E9}</string></plist>".replacingOccurrences(of: "\u{E9}", with: "\u{1}"))
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
        XCTAssertThrowsError(try PlistXMLScanner.scanDocument(bytes)) { error in
            XCTAssertEqual(error as? PlistXMLScanner.Failure, .entity(offset: 13, name: "e"))
        }
        XCTAssertThrowsError(try PlistXMLScanner.scanDocument(Array("<p>&e;</p>".utf8))) { error in
            XCTAssertEqual(error as? PlistXMLScanner.Failure, .entity(offset: 3, name: "e"))
        }
    }

    func testLibXML2LayerRefusesEntityDeclarationsOnItsOwn() {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY xxe SYSTEM \"\(secret.path)\">\n]>\n<plist><string>&xxe;</string></plist>"
        XCTAssertThrowsError(try PlistLibXMLParser.parse(Array(text.utf8), url: "t.plist")) { error in
            XCTAssertEqual(error as? PlistLibXMLParser.Failure, .entity(line: 3, name: "xxe"))
        }
    }
}
