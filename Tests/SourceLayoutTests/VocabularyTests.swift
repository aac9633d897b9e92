import Foundation
import ShipyardTestSupport
import XCTest

/// ARCHITECTURE.md's vocabulary cannot lie: every type it names (a backticked `UpperCamelCase`
/// name, or the type before a `.`) is declared in Sources, and every retired name it lists is
/// declared nowhere, so an old name cannot come back beside its new one.
final class VocabularyTests: XCTestCase {
    /// The section's text, up to the next `## ` heading.
    private func section() throws -> String {
        let text = try SwiftSourceScanner.text("ARCHITECTURE.md")
        let start = try XCTUnwrap(text.range(of: "\n## Vocabulary\n"), "ARCHITECTURE.md has no Vocabulary section")
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// Every type, protocol, alias or extension declared in Sources (comments and strings blanked).
    private func declaredTypes() throws -> Set<String> {
        var names: Set<String> = []
        for file in try SwiftSourceScanner.files(under: "Sources") {
            let code = String(decoding: file.code, as: UTF8.self)
            for match in code.matches(
                of: #/\b(?:struct|class|enum|protocol|typealias|actor|extension)\s+([A-Z][A-Za-z0-9]*)/#)
            {
                names.insert(String(match.output.1))
            }
        }
        return names
    }

    private static func typeNames(in text: Substring) -> [String] {
        text.matches(of: #/`([A-Z][A-Za-z0-9]*)(?:\.[A-Za-z]+)?`/#).map { String($0.output.1) }
    }

    func testEveryTypeTheVocabularyNamesIsDeclared() throws {
        let section = try section()
        let table = section[..<(section.range(of: "Retired names:")?.lowerBound ?? section.endIndex)]
        let declared = try declaredTypes()
        let named = Self.typeNames(in: table)
        XCTAssertGreaterThan(named.count, 30, "the vocabulary's table was not read")
        for name in named {
            XCTAssertTrue(declared.contains(name), "ARCHITECTURE.md's vocabulary names \(name), declared nowhere")
        }
    }

    func testNoRetiredNameIsDeclared() throws {
        let section = try section()
        let retired = try XCTUnwrap(section.range(of: "Retired names:"), "the vocabulary lists no retired names")
        let declared = try declaredTypes()
        // Each retired name is the first backticked name of its clause; what follows "now" is its successor.
        let clauses = section[retired.upperBound...].split(separator: "),").map {
            $0.split(separator: "(now").first ?? ""
        }
        let names = clauses.flatMap { Self.typeNames(in: $0) }
        XCTAssertEqual(names.count, 9, "the retired names were not read: \(names)")
        for name in names {
            XCTAssertFalse(declared.contains(name), "\(name) is retired (ARCHITECTURE.md's vocabulary) but declared")
        }
    }
}
