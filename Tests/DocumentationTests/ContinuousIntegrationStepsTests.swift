import Foundation
import XCTest

/// CONTRIBUTING.md's "How CI runs" is `.ci/run`'s list of steps: every script `.ci/run` runs (and
/// every environment switch it reruns the suite under) is named there, in the order `.ci/run`
/// runs them, and every script named there is run by CI.
final class ContinuousIntegrationStepsTests: XCTestCase {
    static let repository = SwiftSnippetTests.repository

    /// The scripts (`scripts/NAME`, `.ci/NAME`) and `SHIPYARD_…=VALUE` switches of `text`, in order
    /// of first appearance; comment lines left out.
    static func steps(in text: String, skippingComments: Bool) -> [String] {
        let pattern = try? NSRegularExpression(pattern: #"(?:\bscripts|\.ci)/[\w.-]+|\bSHIPYARD_[A-Z0-9_]+=\w+"#)
        var steps: [String] = []
        for line in text.components(separatedBy: "\n") {
            if skippingComments, line.trimmingCharacters(in: .whitespaces).hasPrefix("#") { continue }
            let range = NSRange(line.startIndex..., in: line)
            for match in pattern?.matches(in: line, range: range) ?? [] {
                guard let found = Range(match.range, in: line) else { continue }
                var step = String(line[found])
                if step.hasPrefix("./") { step.removeFirst(2) }
                if !steps.contains(step) { steps.append(step) }
            }
        }
        return steps
    }

    /// The text of `## How CI runs` in CONTRIBUTING.md.
    static func section(_ contributing: String) -> String {
        guard let start = contributing.range(of: "## How CI runs\n") else { return "" }
        let rest = contributing[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// What is wrong between `.ci/run`'s steps and the section's (empty when they agree).
    static func disagreements(run: [String], documented: [String], runByCI: Set<String>) -> [String] {
        var problems: [String] = []
        var previous: (step: String, index: Int)?
        for step in run {
            guard let index = documented.firstIndex(of: step) else {
                problems.append(
                    ".ci/run runs \(step), which CONTRIBUTING.md's \"How CI runs\" does not name: add it in its place"
                        + (previous.map { " (after \($0.step))" } ?? ""))
                continue
            }
            if let previous, index < previous.index {
                problems.append(
                    "CONTRIBUTING.md's \"How CI runs\" names \(step) before \(previous.step); .ci/run runs it after")
            }
            previous = (step, index)
        }
        for step in documented where !runByCI.contains(step) {
            problems.append("CONTRIBUTING.md's \"How CI runs\" names \(step), which CI does not run: remove it")
        }
        return problems
    }

    func testHowCIRunsListsWhatCIRunsInItsOrder() throws {
        let ci = Self.repository.appendingPathComponent(".ci")
        let run = try String(contentsOf: ci.appendingPathComponent("run"), encoding: .utf8)
        var runByCI = Set(Self.steps(in: run, skippingComments: true))
        for name in try FileManager.default.contentsOfDirectory(atPath: ci.path) {
            let text = try String(contentsOf: ci.appendingPathComponent(name), encoding: .utf8)
            runByCI.formUnion(Self.steps(in: text, skippingComments: true) + [".ci/\(name)"])
        }
        let contributing = try String(
            contentsOf: Self.repository.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        let documented = Self.steps(in: Self.section(contributing), skippingComments: false)
        let problems = Self.disagreements(
            run: Self.steps(in: run, skippingComments: true), documented: documented, runByCI: runByCI)
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    func testADisagreementIsFound() {
        XCTAssertEqual(
            Self.steps(
                in: "# scripts/old.sh\n./scripts/a.sh && SHIPYARD_X=1 swift test\ntimed .ci/run-b",
                skippingComments: true),
            ["scripts/a.sh", "SHIPYARD_X=1", ".ci/run-b"])
        let problems = Self.disagreements(
            run: ["scripts/a.sh", "scripts/b.sh", "scripts/c.sh"],
            documented: ["scripts/b.sh", "scripts/a.sh", "scripts/z.sh"],
            runByCI: ["scripts/a.sh", "scripts/b.sh", "scripts/c.sh"])
        XCTAssertEqual(
            problems,
            [
                "CONTRIBUTING.md's \"How CI runs\" names scripts/b.sh before scripts/a.sh; .ci/run runs it after",
                ".ci/run runs scripts/c.sh, which CONTRIBUTING.md's \"How CI runs\" does not name: add it in its place (after scripts/b.sh)",
                "CONTRIBUTING.md's \"How CI runs\" names scripts/z.sh, which CI does not run: remove it",
            ])
    }
}
