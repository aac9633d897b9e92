import Foundation
import ShipyardTestSupport
import XCTest

/// ARCHITECTURE.md's layers table cannot lie: it has a row for every target `swift package
/// describe` lists (but the test targets), each row names exactly the targets and products that
/// target depends on, every dependency is in a row above, and each row's "what it is" is the one
/// description of the target: the comment above the target in Package.swift, its folder's line
/// in CONTRIBUTING.md's map and its row in the README's tables begin with it. A failure names
/// the file that disagrees and what to write.
final class TargetTableTests: XCTestCase {
    static let repository = SwiftSnippetTests.repository

    /// One row of the table.
    struct Row {
        var name: String
        var link: String?
        var description: String
        var dependencies: [String]
    }

    /// One target as `swift package describe --type json` gives it.
    struct Described {
        var name: String
        var path: String
        var type: String
        var dependencies: Set<String>
    }

    static func read(_ file: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
    }

    /// `swift package describe --type json`, in a scratch directory of its own (so that it
    /// neither waits for nor disturbs the build the tests run from).
    static func described() throws -> [String: Described] {
        let scratch = try TemporaryDirectory("shipyard-describe")
        let result = try ProcessRunner.run(
            try SwiftTypeChecker.executable("swift"),
            ["package", "--scratch-path", scratch.path, "describe", "--type", "json"], in: repository)
        guard result.status == 0 else {
            throw SnippetCheckFailure("swift package describe failed: \(result.stderrText)")
        }
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        var targets: [String: Described] = [:]
        for target in json?["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String, let type = target["type"] as? String, type != "test" else {
                continue
            }
            let dependencies =
                (target["target_dependencies"] as? [String] ?? []) + (target["product_dependencies"] as? [String] ?? [])
            targets[name] = Described(
                name: name, path: target["path"] as? String ?? "", type: type, dependencies: Set(dependencies))
        }
        return targets
    }

    /// The rows of the table under "## Layers" whose header is `| target | what it is | depends on |`.
    static func rows(of architecture: String) -> [Row] {
        guard let section = architecture.range(of: "\n## Layers\n") else { return [] }
        let lines = architecture[section.upperBound...].components(separatedBy: "\n")
        guard let header = lines.firstIndex(of: "| target | what it is | depends on |") else { return [] }
        var rows: [Row] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| ") else { break }
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            guard cells.count == 3 else { continue }
            var name = cells[0]
            var link: String?
            if name.hasPrefix("["), let close = name.range(of: "](") {
                link = String(name[close.upperBound...].dropLast())
                name = String(name[name.index(after: name.startIndex)..<close.lowerBound])
            }
            let dependencies =
                cells[2] == "—"
                ? [] : splitOutsideParentheses(cells[2]).map { $0.components(separatedBy: " (")[0] }
            rows.append(Row(name: name, link: link, description: cells[1], dependencies: dependencies))
        }
        return rows
    }

    /// `text` split at ", " outside parentheses.
    static func splitOutsideParentheses(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0, characters.first == " " {
                parts.append(current)
                current = ""
                characters.removeFirst()
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// Whether `text` begins with `description` (its first letter in either case).
    static func begins(_ text: String, with description: String) -> Bool {
        text.lowercased().hasPrefix(description.lowercased())
    }

    func testTheTableIsEveryTargetWithWhatItDependsOn() throws {
        let described = try Self.described()
        let rows = Self.rows(of: try Self.read("ARCHITECTURE.md"))
        XCTAssertFalse(
            rows.isEmpty, "ARCHITECTURE.md has no `| target | what it is | depends on |` table under ## Layers")
        let names = rows.map(\.name)
        for name in described.keys.sorted() where !names.contains(name) {
            let dependencies = described[name]?.dependencies.sorted() ?? []
            XCTFail(
                "ARCHITECTURE.md: the layers table has no row for \(name), which swift package describe lists: "
                    + "add one below every target it depends on (\(dependencies.joined(separator: ", ")))")
        }
        for (index, row) in rows.enumerated() {
            guard let target = described[row.name] else {
                XCTFail(
                    "ARCHITECTURE.md: the layers table has a row for \(row.name), which swift package describe does not list"
                )
                continue
            }
            if Set(row.dependencies) != target.dependencies {
                XCTFail(
                    "ARCHITECTURE.md: \(row.name) depends on \(target.dependencies.sorted().joined(separator: ", ")) "
                        + "(swift package describe), but its row says \(row.dependencies.joined(separator: ", ")): "
                        + "write what Package.swift declares")
            }
            for dependency in row.dependencies where described[dependency] != nil {
                if !names[..<index].contains(dependency) {
                    XCTFail(
                        "ARCHITECTURE.md: \(row.name) depends on \(dependency), which is not above it: move \(row.name) below it"
                    )
                }
            }
            if let link = row.link, link != target.path + "/" {
                XCTFail("ARCHITECTURE.md: \(row.name) links to \(link), but its sources are in \(target.path)/")
            }
        }
    }

    /// The comment above each target's declaration in Package.swift begins with its description.
    func testPackageSwiftDescribesEachTargetAsTheTableDoes() throws {
        let rows = Self.rows(of: try Self.read("ARCHITECTURE.md"))
        let comments = Self.packageComments(try Self.read("Package.swift"))
        for row in rows {
            guard let comment = comments[row.name] else {
                XCTFail("Package.swift: no declaration of \(row.name) in `targets:` was found")
                continue
            }
            if !Self.begins(comment, with: row.description) {
                XCTFail(
                    "Package.swift: the comment above the target \(row.name) begins \"\(comment.prefix(80))\"; begin it "
                        + "with ARCHITECTURE.md's description, \"\(row.description)\" (that table is the one place "
                        + "it is written: change it there and here together)")
            }
        }
    }

    /// The comment lines right above each declaration in `targets:` (MARK lines left out), joined.
    static func packageComments(_ manifest: String) -> [String: String] {
        let lines = manifest.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "    targets: [") else { return [:] }
        var comments: [String: String] = [:]
        for index in (start + 1)..<lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard
                line.range(of: #"^\.(target|executableTarget|systemLibrary|plugin)\("#, options: .regularExpression)
                    != nil
            else { continue }
            let declaration = ([line] + lines[(index + 1)...].prefix(2)).joined(separator: " ")
            guard let nameStart = declaration.range(of: "name: \""),
                let nameEnd = declaration[nameStart.upperBound...].firstIndex(of: "\"")
            else { continue }
            var text: [String] = []
            var above = index - 1
            while above > start, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let comment = lines[above].trimmingCharacters(in: .whitespaces).dropFirst(2)
                    .trimmingCharacters(in: .whitespaces)
                if !comment.hasPrefix("MARK:") { text.insert(comment, at: 0) }
                above -= 1
            }
            comments[String(declaration[nameStart.upperBound..<nameEnd])] = text.joined(separator: " ")
        }
        return comments
    }

    /// Each folder of CONTRIBUTING.md's map that is a target's begins with its description.
    func testContributingMapsEachTargetAsTheTableDoes() throws {
        let rows = Self.rows(of: try Self.read("ARCHITECTURE.md"))
        let entries = Self.folderMap(try Self.read("CONTRIBUTING.md"))
        for row in rows where row.link?.hasPrefix("Sources/") == true {
            guard let entry = entries[row.name] else {
                XCTFail(
                    "CONTRIBUTING.md: the map of Sources/ has no line `  \(row.name)/  \(row.description)…`: add one")
                continue
            }
            if !Self.begins(entry, with: row.description) {
                XCTFail(
                    "CONTRIBUTING.md: the map's line for \(row.name)/ begins \"\(entry.prefix(80))\"; begin it with "
                        + "ARCHITECTURE.md's description, \"\(row.description)\"")
            }
        }
    }

    /// The entries of the first code block of CONTRIBUTING.md's "Where things live": a folder
    /// name at two spaces' indentation, then its text (continuation lines, indented further, joined).
    static func folderMap(_ contributing: String) -> [String: String] {
        guard let section = contributing.range(of: "## Where things live"),
            let open = contributing.range(of: "```\n", range: section.upperBound..<contributing.endIndex),
            let close = contributing.range(of: "\n```", range: open.upperBound..<contributing.endIndex)
        else { return [:] }
        var entries: [String: String] = [:]
        var current: String?
        for line in contributing[open.upperBound..<close.lowerBound].components(separatedBy: "\n") {
            let words = line.split(separator: " ", maxSplits: 1)
            if line.hasPrefix("  "), !line.hasPrefix("   "), let folder = words.first, folder.hasSuffix("/") {
                let rest = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
                let grouped = rest.split(separator: " ").first?.hasSuffix("/") ?? false
                current = grouped ? nil : String(folder.dropLast())
                if let current { entries[current] = rest }
            } else if let name = current, line.hasPrefix("    ") {
                entries[name, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                current = nil
            }
        }
        return entries
    }

    /// A README table row whose first cell is a target's name says what the target is in its
    /// second cell, as the table does.
    func testTheReadmeDescribesEachTargetAsTheTableDoes() throws {
        let rows = Self.rows(of: try Self.read("ARCHITECTURE.md"))
        let descriptions = Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0.description) })
        var described = 0
        for line in try Self.read("README.md").components(separatedBy: "\n") where line.hasPrefix("| ") {
            let cells = line.dropFirst(2).components(separatedBy: " | ")
            guard cells.count >= 2 else { continue }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard let description = descriptions[name] else { continue }
            described += 1
            if !Self.begins(cells[1], with: description) {
                XCTFail(
                    "README.md: the row of \(name) says \"\(cells[1])\"; begin it with ARCHITECTURE.md's "
                        + "description, \"\(description)\"")
            }
        }
        XCTAssertGreaterThanOrEqual(described, 5, "the README's documentation table names the libraries")
    }

    /// The checks find what is wrong: a missing row, a dependency the table leaves out, a row above
    /// its dependency, and descriptions that differ.
    func testTheChecksFindADisagreement() {
        let table = """
            ## Layers

            | target | what it is | depends on |
            |---|---|---|
            | [B](Sources/B/) | the b layer | A, Crypto (swift-crypto: BoringSSL, elsewhere) |
            | [A](Sources/A/) | the a layer | — |

            """
        let rows = Self.rows(of: "# X\n" + table)
        XCTAssertEqual(rows.map(\.name), ["B", "A"])
        XCTAssertEqual(rows[0].dependencies, ["A", "Crypto"])
        XCTAssertEqual(rows[0].link, "Sources/B/")
        let manifest = """
                targets: [
                    // MARK: Libraries
                    // The b layer, and why it links A.
                    .target(name: "B", dependencies: ["A"]),
                    .target(
                        name: "A"),
                ]
            """
        let comments = Self.packageComments(manifest)
        XCTAssertEqual(comments["B"], "The b layer, and why it links A.")
        XCTAssertEqual(comments["A"], "")
        XCTAssertTrue(Self.begins(comments["B"] ?? "", with: "the b layer"))
        let contributing = """
            ## Where things live

            ```
            Sources/
              B/                          the b layer: more
                                          and more
              C/ D/                       two at once
            ```
            """
        XCTAssertEqual(Self.folderMap(contributing), ["B": "the b layer: more and more"])
    }
}
