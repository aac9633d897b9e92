import ShipyardTestSupport
import XCTest

/// One concept per file, named for what it holds, in every target under `Sources/`: a reader
/// who knows a type's name knows its file.
///
/// The rule, for a file `NAME.swift` or `NAME+TOPIC.swift` (NAME: the file name up to its
/// first `+` and without `.swift`): every type it declares outside any braces as `public`,
/// `open` or `package` (a struct, class, enum, actor, protocol or typealias: what another
/// module can name) is either
/// - NAME itself (`ReleaseFacts` in `ReleaseFacts.swift`), or
/// - a companion of NAME: its name is NAME followed by more (`ReleaseFactsError` beside
///   `ReleaseFacts`, `ConfigurationFileError` beside `ConfigurationFile`: the error or options
///   of the one type it serves), in a file that declares or extends NAME.
///
/// `NAME+TOPIC.swift` holds extensions of NAME on one topic (and NAME's companions for it).
/// Types nested in another are that type's, and internal or private types are the file's own
/// business: neither is checked. Anything else that is public gets a file of its own.
final class OneConceptPerFileTests: XCTestCase {
    func testEveryPublicTypeLivesInTheFileNamedAfterItOrBesideTheTypeItServes() throws {
        var problems: [String] = []
        var checked = 0
        for file in try SwiftSourceScanner.files(under: "Sources") {
            let declarations = TypeDeclarations(file)
            checked += declarations.exported.count
            problems += Self.misplaced(declarations, in: file)
        }
        XCTAssertGreaterThan(checked, 150, "the public types were found")
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// The check tells each case apart, on snippets.
    func testTheRuleOnEachShape() {
        func problems(_ path: String, _ code: String) -> [String] {
            let file = SwiftSourceScanner.File(path: path, code: SwiftSourceScanner.codeOnly(Array(code.utf8)))
            return Self.misplaced(TypeDeclarations(file), in: file)
        }
        XCTAssertEqual(problems("Facts.swift", "public struct Facts {}\npublic struct FactsError: Error {}"), [])
        XCTAssertEqual(problems("Feed+Pull.swift", "extension Feed {}\npublic struct FeedPullSummary {}"), [])
        XCTAssertEqual(problems("Facts.swift", "struct Helper {}\nprivate enum Other {}\npublic struct Facts {}"), [])
        XCTAssertEqual(problems("Facts.swift", "public struct Facts {\n    public struct Nested {}\n}"), [])
        XCTAssertEqual(
            problems("Facts.swift", "@frozen\npublic struct Facts {}\npackage protocol Reader {}"),
            ["Facts.swift:3: Reader (package) is neither Facts nor a companion named Facts…: give it Reader.swift"])
        XCTAssertEqual(
            problems("Renewal.swift", "extension Feed {}\npublic struct RenewalSummary {}"),
            [
                "Renewal.swift:2: RenewalSummary (public) is a companion of Renewal, which Renewal.swift neither "
                    + "declares nor extends: give it RenewalSummary.swift"
            ])
        XCTAssertEqual(
            problems("Fetcher.swift", "public protocol Fetcher {}\npublic typealias TargetFetcher = Fetcher"),
            [
                "Fetcher.swift:2: TargetFetcher (public) is neither Fetcher nor a companion named Fetcher…: "
                    + "give it TargetFetcher.swift"
            ])
    }

    /// `PATH:LINE: TYPE (ACCESS) …` for each exported type of `file` the rule does not place there.
    static func misplaced(_ declarations: TypeDeclarations, in file: SwiftSourceScanner.File) -> [String] {
        let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
        let base = String(fileName.dropLast(".swift".count).split(separator: "+", maxSplits: 1).first ?? "")
        let hosts = declarations.topLevel.union(declarations.extended).contains(base)
        var problems: [String] = []
        for (name, offset) in declarations.exported where name != base {
            let access = Self.access(before: offset, in: file)
            if name.hasPrefix(base), name.count > base.count {
                if !hosts {
                    problems.append(
                        "\(file.location(offset)): \(name) (\(access)) is a companion of \(base), which \(fileName) "
                            + "neither declares nor extends: give it \(name).swift")
                }
            } else {
                problems.append(
                    "\(file.location(offset)): \(name) (\(access)) is neither \(base) nor a companion named "
                        + "\(base)…: give it \(name).swift")
            }
        }
        return problems
    }

    /// The exporting modifier on the line of the declaration at `offset`.
    private static func access(before offset: Int, in file: SwiftSourceScanner.File) -> String {
        var start = offset
        while start > 0, file.code[start - 1] != 10 { start -= 1 }
        let line = String(decoding: file.code[start..<offset], as: UTF8.self).split(separator: " ").map(String.init)
        return line.first { TypeDeclarations.exportingModifiers.contains($0) } ?? "public"
    }
}
