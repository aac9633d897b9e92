import Foundation
@testable import VersionStampKit
import XCTest

/// `VersionToken.entry` is the one table of tokens: what is generated from it holds every
/// token, and what is written by hand (the README's list, the VersionTokens article) names
/// exactly the tokens of the table, so a token added to one and not the other fails here.
final class VersionTokenTableTests: XCTestCase {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private var tableTokens: [String] { VersionToken.allCases.map { "{\($0.rawValue)}" } }

    /// Every `{token}` in `text`, in order (`{{` and `}}` are not tokens).
    private func tokens(in text: Substring) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "`{") {
            guard let close = rest[open.upperBound...].range(of: "}`") else { break }
            found.append("{" + rest[open.upperBound..<close.lowerBound] + "}")
            rest = rest[close.upperBound...]
        }
        return found
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    func testReadmeListsTheTableTokens() throws {
        let readme = try read("README.md")
        guard let start = readme.range(of: "The tokens — "),
            let end = readme[start.upperBound...].range(of: " — each equal")
        else {
            return XCTFail("README.md has no 'The tokens — … — each equal' list")
        }
        XCTAssertEqual(tokens(in: readme[start.upperBound..<end.lowerBound]), tableTokens)
    }

    func testVersionTokensArticleTabulatesTheTableTokens() throws {
        let article = try read("Sources/VersionStampKit/VersionStampKit.docc/VersionTokens.md")
        let firstColumns = article.split(separator: "\n").filter { $0.hasPrefix("| `{") }.map { row in
            row.dropFirst(2).prefix { $0 != "|" }
        }
        XCTAssertEqual(firstColumns.flatMap { tokens(in: $0) }, tableTokens)
    }

    func testHelpListsEveryToken() {
        for token in tableTokens {
            XCTAssertTrue(VersionToken.helpText.contains("  \(token) "), token)
        }
        XCTAssertEqual(VersionToken.list, tableTokens.joined(separator: ", "))
    }

    /// The generated files hold one field per token, named and documented by the table, after `version`.
    func testGeneratedFilesHaveAFieldPerToken() throws {
        let order = GeneratedVersionFile.Fields.tokenOrder
        XCTAssertEqual(Set(order), Set(VersionToken.allCases))
        XCTAssertEqual(order.count, VersionToken.allCases.count)
        let context = VersionContext(revision: nil, override: "1.0", buildNumber: BuildNumber())
        let fields = try GeneratedVersionFile.Fields(version: "1.0", context: context).fields
        XCTAssertEqual(fields.map(\.name), ["version"] + order.map(\.entry.field))
        XCTAssertEqual(fields.dropFirst().map(\.doc), order.map(\.entry.fieldDoc))
        XCTAssertEqual(Set(fields.map(\.name)).count, fields.count, "field names are unique")
    }
}
