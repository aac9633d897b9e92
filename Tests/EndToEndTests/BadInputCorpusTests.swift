import Foundation
import ShipyardTestSupport
import XCTest

/// Runs every case of `Tests/BadInputCorpus/`: malformed scripts, CSVs, plists, repositories
/// and databases, each with the exit status and stderr text the tools must produce.
///
/// A case is a folder holding its inputs and an `expect` file of `key: value` lines:
///
/// - `run: TOOL ARGS...` (required): `dbgen` or `versionstamp` and its arguments, split like a
///   shell does (single and double quotes), run in a scratch copy of the folder.
/// - `status: N` (required): the exit status.
/// - `stderr: TEXT` (one or more): text stderr must contain.
/// - `env: NAME=VALUE` / `unset: NAME`: the environment (`$DIR` is the scratch folder).
///   `VERSIONSTAMP_VERSION` is unset unless a case sets it.
/// - `unchanged: PATH`: the file's bytes after the run equal those before it.
/// - `absent: PATH`: the path does not exist after the run.
///
/// Every stderr line must be a diagnostic (or the usage message): no library chatter.
///
/// A `setup.sh` in the folder runs first (with `sh`, in the scratch copy) to build inputs that
/// cannot be checked in, such as git repositories.
final class BadInputCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BadInputCorpus")

    struct Expectation {
        var arguments: [String] = []
        var status: Int32?
        var stderr: [String] = []
        var environment: [String: String] = [:]
        var unset: [String] = ["VERSIONSTAMP_VERSION"]
        var unchanged: [String] = []
        var absent: [String] = []
    }

    static func caseNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.path)
            .filter {
                FileManager.default.fileExists(
                    atPath: corpus.appendingPathComponent($0).appendingPathComponent("expect").path)
            }
            .sorted()
    }

    /// The corpus is there and every case says what it runs and what must happen, so the
    /// corpus test below cannot pass by running nothing.
    func testCorpusCasesAreComplete() throws {
        let names = try Self.caseNames()
        XCTAssertGreaterThanOrEqual(names.count, 50, "cases found in \(Self.corpus.path)")
        for prefix in ["dbgen-", "attach-", "plist-", "repo-"] {
            XCTAssertTrue(names.contains { $0.hasPrefix(prefix) }, "no \(prefix)* case")
        }
        for name in names {
            let expectation = try Self.parse(Self.corpus.appendingPathComponent(name))
            XCTAssertTrue(["dbgen", "versionstamp"].contains(expectation.arguments.first ?? ""), "\(name): run")
            XCTAssertNotNil(expectation.status, "\(name): status")
            XCTAssertFalse(expectation.stderr.isEmpty, "\(name): stderr")
        }
    }

    func testEveryCaseFailsAsExpected() throws {
        for name in try Self.caseNames() {
            try runCase(name)
        }
    }

    func runCase(_ name: String) throws {
        let scratch = try TemporaryDirectory("bad-input", removedAfter: self).url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent(name), to: scratch)
        var expectation = try Self.parse(scratch)
        for (key, value) in expectation.environment {
            expectation.environment[key] = value.replacingOccurrences(of: "$DIR", with: scratch.path)
        }
        let setup = scratch.appendingPathComponent("setup.sh")
        if FileManager.default.fileExists(atPath: setup.path) {
            let result = try ProcessRunner.run(
                "/bin/sh", ["setup.sh"], in: scratch,
                environment: ["GIT_CONFIG_NOSYSTEM": "1", "HOME": scratch.path])
            guard result.status == 0 else {
                XCTFail("\(name): setup.sh failed (\(result.status)): \(result.stderrText)")
                return
            }
        }
        var before: [String: Data] = [:]
        for path in expectation.unchanged {
            guard let data = FileManager.default.contents(atPath: scratch.appendingPathComponent(path).path) else {
                XCTFail("\(name): 'unchanged: \(path)' names no readable file")
                return
            }
            before[path] = data
        }

        let tool = expectation.arguments[0]
        let result = try BuiltProducts.run(
            tool, Array(expectation.arguments.dropFirst()), in: scratch,
            environment: expectation.environment,
            removing: expectation.unset.filter { expectation.environment[$0] == nil })
        let shown =
            "\(name): `\(expectation.arguments.joined(separator: " "))` exited \(result.status), stderr:\n\(result.stderrText)"
        XCTAssertEqual(result.status, expectation.status, shown)
        for text in expectation.stderr {
            XCTAssertTrue(result.stderrText.contains(text), "\(shown)\nmissing: \(text)")
        }
        // Nothing but diagnostics on stderr: no library chatter, no crash report, no trace.
        for line in result.stderrText.split(separator: "\n") where !Self.isDiagnosticLine(line) {
            XCTFail("\(shown)\nstray stderr line: \(line)")
        }
        for (path, data) in before {
            XCTAssertEqual(
                FileManager.default.contents(atPath: scratch.appendingPathComponent(path).path), data,
                "\(name): \(path) changed")
        }
        for path in expectation.absent {
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: scratch.appendingPathComponent(path).path),
                "\(name): \(path) exists")
        }
    }

    /// A compiler-style diagnostic (`PATH[:LINE[:COL]]: error: …`, `tool: warning: …`), or
    /// swift-argument-parser's usage message.
    static func isDiagnosticLine(_ line: Substring) -> Bool {
        if line.isEmpty || line.hasPrefix("Error: ") || line.hasPrefix("Usage: ") || line.hasPrefix("  See ") {
            return true
        }
        return line.contains(": error: ") || line.contains(": warning: ")
    }

    static func parse(_ folder: URL) throws -> Expectation {
        let text = try String(contentsOf: folder.appendingPathComponent("expect"), encoding: .utf8)
        var expectation = Expectation()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            guard let colon = line.range(of: ": ") else { continue }
            let key = String(line[..<colon.lowerBound])
            let value = String(line[colon.upperBound...])
            switch key {
            case "run": expectation.arguments = splitArguments(value)
            case "status": expectation.status = Int32(value)
            case "stderr": expectation.stderr.append(value)
            case "env":
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                expectation.environment[parts[0]] = parts.count > 1 ? parts[1] : ""
            case "unset": expectation.unset.append(value)
            case "unchanged": expectation.unchanged.append(value)
            case "absent": expectation.absent.append(value)
            default:
                throw NSError(
                    domain: "BadInputCorpus", code: 1,
                    userInfo: [NSLocalizedDescriptionKey: "\(folder.lastPathComponent)/expect: unknown key '\(key)'"])
            }
        }
        return expectation
    }

    /// Splits a command line like a shell: whitespace separates, quotes group (no escapes
    /// inside single quotes; `\"` and `\\` inside double quotes).
    static func splitArguments(_ line: String) -> [String] {
        var arguments: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { arguments.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { arguments.append(current) }
        return arguments
    }

    func testSplitArgumentsHandlesQuotes() {
        XCTAssertEqual(
            Self.splitArguments(#"dbgen attach "SELECT 'a b'" 'x "y"' z"#),
            ["dbgen", "attach", "SELECT 'a b'", #"x "y""#, "z"])
        XCTAssertEqual(Self.splitArguments(#"a "" b"#), ["a", "", "b"])
    }
}
