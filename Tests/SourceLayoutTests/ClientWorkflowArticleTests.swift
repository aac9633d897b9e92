import Foundation
import ShipyardTestSupport
import XCTest

/// TUF's DocC article "The client workflow, step by step" (ClientWorkflow.md) cannot drift from
/// the code: every step of the specification's client workflow (section 5, 1.0.31) has its row,
/// and its number is in a comment at the code that takes it; every function, type or member a
/// row names is declared in Sources/TUF (with the argument labels it gives); every test a row
/// names exists in TUFTests (a test method, a class of that many tests, a delegation graph of
/// that name).
/// The conformance suite's tests (`conformance: FILE::TEST`) are run by the suite itself, not
/// read here.
final class ClientWorkflowArticleTests: XCTestCase {
    /// The numbered steps of the specification's "Detailed client workflow".
    static let steps: [String] =
        ["5.1", "5.2"] + (1...12).map { "5.3.\($0)" } + ["5.4.1", "5.4.2", "5.4.3.1", "5.4.3.2", "5.4.4", "5.4.5"]
        + (1...7).map { "5.5.\($0)" } + (1...6).map { "5.6.\($0)" } + ["5.6.7", "5.6.7.1", "5.6.7.2", "5.6.7.2.1"]
        + (1...3).map { "5.7.\($0)" }

    static let articlePath = "Sources/TUF/TUF.docc/ClientWorkflow.md"

    /// A row of the article: the cell naming code and the cell naming tests.
    struct Row {
        var code: String
        var tests: String
    }

    private func article() throws -> String { try SwiftSourceScanner.text(Self.articlePath) }

    /// The rows: `| STEP | CODE | TESTS |`, or the `| Code | … |` and `| Tests | … |` pairs of
    /// 5.1 and 5.2.
    private func rows() throws -> [Row] {
        var rows: [Row] = []
        for line in try article().split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 3, cells[0] != "Step", !cells[0].hasPrefix("---") {
                rows.append(Row(code: cells[1], tests: cells[2]))
            } else if cells.count == 2, cells[0] == "Code" {
                rows.append(Row(code: cells[1], tests: ""))
            } else if cells.count == 2, cells[0] == "Tests" {
                rows.append(Row(code: "", tests: cells[1]))
            }
        }
        return rows
    }

    /// Whether `text` names `step` itself or in a range `A–B` of steps that holds it.
    static func names(_ step: String, in text: String) -> Bool {
        for match in text.matches(of: #/(5(?:\.[0-9]+)+)(?:–(5(?:\.[0-9]+)+))?(?![0-9.]*[0-9])/#) {
            let first = String(match.output.1)
            if first == step { return true }
            guard let last = match.output.2.map(String.init) else { continue }
            let parts = { (text: String) in text.split(separator: ".").compactMap { Int($0) } }
            let (low, high, value) = (parts(first), parts(last), parts(step))
            if low.count == value.count, high.count == value.count, low.dropLast() == value.dropLast(),
                high.dropLast() == value.dropLast(), let v = value.last, let l = low.last, let h = high.last,
                (l...h).contains(v)
            {
                return true
            }
        }
        return false
    }

    func testEveryStepHasItsRowAndItsNumberAtTheCode() throws {
        let text = try article()
        let comments = try SwiftSourceScanner.files(under: "Sources/TUF").map { file in
            try SwiftSourceScanner.text(file.path).split(separator: "\n")
                .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        }.joined(separator: "\n")
        for step in Self.steps {
            XCTAssertTrue(Self.names(step, in: text), "\(Self.articlePath) has no row for \(step)")
            XCTAssertTrue(Self.names(step, in: comments), "no comment in Sources/TUF names step \(step)")
        }
    }

    func testEveryFunctionTheArticleNamesIsDeclared() throws {
        let declarations = try Declarations(SwiftSourceScanner.files(under: "Sources/TUF"))
        var checked = 0
        for row in try rows() {
            for symbol in Self.symbols(in: row.code) {
                checked += 1
                XCTAssertTrue(declarations.declares(symbol), "\(Self.articlePath) names \(symbol), not declared in TUF")
            }
        }
        XCTAssertGreaterThan(checked, 40, "the article's Code cells were not read")
    }

    func testEveryTestTheArticleNamesExists() throws {
        let tests = try TestClasses(SwiftSourceScanner.files(under: "Tests/TUFTests"))
        let graphs = try SwiftSourceScanner.text("Tests/TUFTests/DelegationGraphTests.swift")
        let counts = ["both": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8]
        var checked = 0
        for row in try rows() {
            for match in row.tests.matches(of: #/`([A-Za-z]+Tests)(?:\.(test[A-Za-z0-9]+))?`(?: \(([^)]*)\))?/#) {
                checked += 1
                let (className, method, note) = (String(match.output.1), match.output.2, match.output.3)
                let methods = tests.methods[className]
                XCTAssertNotNil(methods, "\(Self.articlePath) names \(className), no such test class")
                if let method {
                    XCTAssertTrue(methods?.contains(String(method)) ?? false, "no test \(className).\(method)")
                } else if let note {
                    let words = note.split(separator: " ").map(String.init)
                    if let count = words.compactMap({ counts[$0] }).first {
                        XCTAssertEqual(methods?.count, count, "\(className) (\(note)): it has \(methods?.count ?? 0)")
                    }
                    for quoted in note.matches(of: #/"([^"]+)"/#) {
                        var name = String(quoted.output.1)
                        let prefix = name.hasSuffix("…")
                        if prefix { name.removeLast() }
                        XCTAssertTrue(
                            graphs.contains("name: \"\(name)" + (prefix ? "" : "\"")),
                            "\(className) has no graph named \"\(quoted.output.1)\"")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 40, "the article's Tests cells were not read")
    }

    /// The code a cell names: ``Type/member(labels:)`` symbol links, and `Type.member(…)`,
    /// `Type`, `member` in code voice; file names (`N.root.json`) and python-tuf's names
    /// (`max_delegations`) are not code of this library.
    static func symbols(in cell: String) -> [String] {
        var symbols: [String] = []
        for match in cell.matches(of: #/``([^`]+)``|`([^`]+)`/#) {
            if let link = match.output.1 {
                symbols.append(String(link).replacingOccurrences(of: "/", with: "."))
            } else if let code = match.output.2 {
                let text = String(code)
                guard !text.contains(".json"), !text.contains(" "), text.contains("(") || !text.contains("_"),
                    text.first?.isLetter ?? false
                else { continue }
                symbols.append(text)
            }
        }
        return symbols
    }

    /// The declarations of a library's sources (comments and strings blanked).
    struct Declarations {
        var types: Set<String> = []
        /// Each member name with the argument labels of each of its declarations (empty for a
        /// property or a case).
        var members: [String: [[String]]] = [:]

        init(_ files: [SwiftSourceScanner.File]) throws {
            for file in files {
                let code = String(decoding: file.code, as: UTF8.self)
                for match in code.matches(of: #/(?:struct|class|enum|protocol|extension|actor)\s+([A-Z][A-Za-z0-9]*)/#)
                {
                    types.insert(String(match.output.1))
                }
                for match in code.matches(of: #/(?:var|let|case)\s+([a-z][A-Za-z0-9]*)/#) {
                    members[String(match.output.1), default: []].append([])
                }
                for match in code.matches(of: #/(?:func\s+([a-z][A-Za-z0-9]*)|\b(init))\s*(?:<[^>]*>)?\(/#) {
                    let name = String(match.output.1 ?? match.output.2 ?? "")
                    members[name, default: []].append(Self.labels(code, from: match.range.upperBound))
                }
            }
        }

        /// The argument labels of the parameter list starting at `start` (just after its `(`).
        static func labels(_ code: String, from start: String.Index) -> [String] {
            var depth = 0, parameter = "", parameters: [String] = []
            var index = start
            var previous: Character = " "
            while index < code.endIndex {
                let character = code[index]
                index = code.index(after: index)
                defer { previous = character }
                // `->` of a closure type is no bracket.
                let isArrow = character == ">" && previous == "-"
                if "([<".contains(character) { depth += 1 }
                if ")]>".contains(character), !isArrow {
                    if depth == 0 { break }
                    depth -= 1
                }
                if character == ",", depth == 0 {
                    parameters.append(parameter)
                    parameter = ""
                } else {
                    parameter.append(character)
                }
            }
            parameters.append(parameter)
            return parameters.compactMap { parameter in
                let head = parameter.split(separator: ":", maxSplits: 1).first ?? ""
                return head.split(whereSeparator: \.isWhitespace).first.map(String.init)
            }
        }

        /// Whether `symbol` (`Type`, `Type.member`, `Type.member(a:b:)`, `member`,
        /// `Type.init(…label:…)`) is declared.
        func declares(_ symbol: String) -> Bool {
            var name = symbol, labels: [String]?
            if let open = name.firstIndex(of: "(") {
                let inner = name[name.index(after: open)...].dropLast()
                labels = inner.split(separator: ":").map(String.init).filter { !$0.isEmpty }
                name = String(name[..<open])
            }
            var parts = name.split(separator: ".").map(String.init)
            let member = parts.count > 1 || parts.first?.first?.isLowercase == true ? parts.removeLast() : nil
            if let type = parts.last, !types.contains(type) { return false }
            guard let member else { return true }
            guard let declared = members[member] else { return false }
            guard let labels else { return true }
            if labels.contains(where: { $0.contains("…") }) {
                let wanted = labels.map { $0.replacingOccurrences(of: "…", with: "") }.filter { !$0.isEmpty }
                return declared.contains { found in wanted.allSatisfy(found.contains) }
            }
            return declared.contains(labels)
        }
    }

    /// Each test class in the test sources and its test methods.
    struct TestClasses {
        var methods: [String: [String]] = [:]

        init(_ files: [SwiftSourceScanner.File]) throws {
            for file in files {
                let code = String(decoding: file.code, as: UTF8.self)
                guard let declaration = code.firstMatch(of: #/class\s+([A-Za-z0-9]+Tests)\s*:/#) else { continue }
                methods[String(declaration.output.1), default: []] += code.matches(of: #/func\s+(test[A-Za-z0-9]+)\(/#)
                    .map { String($0.output.1) }
            }
        }
    }
}
