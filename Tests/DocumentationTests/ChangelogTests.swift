import Foundation
import XCTest

/// CHANGELOG.md's newest entry names every product of Package.swift (each executable, library
/// and plugin a release ships), so a release cannot ship one the changelog does not mention.
final class ChangelogTests: XCTestCase {
    func testTheNewestEntryNamesEveryProduct() throws {
        let repository = SwiftSnippetTests.repository
        let manifest = try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let changelog = try String(contentsOf: repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let products = manifest.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.range(of: #"^\s*\.(executable|library|plugin)\(name: ""#, options: .regularExpression) != nil,
                line.contains("targets: [")
            else { return nil }
            return line.components(separatedBy: "name: \"").dropFirst().first?.components(separatedBy: "\"").first
        }
        XCTAssertGreaterThan(products.count, 10, "Package.swift's products were read")
        let entries = changelog.components(separatedBy: "\n## ")
        XCTAssertGreaterThan(entries.count, 1, "CHANGELOG.md has no `## VERSION` entry")
        let newest = entries[1]
        for product in products where !newest.contains("`\(product)`") {
            XCTFail(
                "CHANGELOG.md: the newest entry (## \(newest.prefix { $0 != "\n" })) does not name `\(product)`, a product of Package.swift"
            )
        }
    }
}
