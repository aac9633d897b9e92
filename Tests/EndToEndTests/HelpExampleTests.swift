import Foundation
import ShipyardTestSupport
import XCTest

/// Every `Example:` of every dbgen command's `--help` can be copied and pasted: no line is cut
/// by the help's wrapping, and each command line (continuation lines joined) names only the
/// subcommands, options and arguments that command has, every required one given, as
/// `dbgen --experimental-dump-help` (swift-argument-parser's own description of the commands)
/// says; and `publish --help` names the files publish writes.
final class HelpExampleTests: XCTestCase {
    /// One command's arguments, from the help dump.
    struct Command {
        var path: [String]
        var subcommands: [String: Command] = [:]
        /// Option and flag names (`--key`, `-o`) and whether each takes a value.
        var names: [String: Bool] = [:]
        var required: [[String]] = []
        var positionals = 0
        var repeatingPositional = false
        var requiredPositionals = 0
        /// The subcommand the group runs when none is named, as the dump says.
        var defaultSubcommand: String?
    }

    static func commands(_ tool: String) throws -> Command {
        let dump = try BuiltProducts.run(tool, ["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderrText)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        return command(try XCTUnwrap(json["command"] as? [String: Any]), path: [])
    }

    private static func command(_ json: [String: Any], path: [String]) -> Command {
        var command = Command(path: path)
        command.defaultSubcommand = json["defaultSubcommand"] as? String
        for argument in json["arguments"] as? [[String: Any]] ?? [] {
            let kind = argument["kind"] as? String ?? ""
            let optional = argument["isOptional"] as? Bool ?? true
            if kind == "positional" {
                command.positionals += 1
                if argument["isRepeating"] as? Bool ?? false { command.repeatingPositional = true }
                if !optional { command.requiredPositionals += 1 }
                continue
            }
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String == "short" ? "-" : "--") + text
            }
            for name in names { command.names[name] = kind == "option" }
            if !optional { command.required.append(names) }
        }
        for sub in json["subcommands"] as? [[String: Any]] ?? [] {
            guard let name = sub["commandName"] as? String, name != "help" else { continue }
            command.subcommands[name] = Self.command(sub, path: path + [name])
        }
        return command
    }

    /// The `Example` section of a help text: from the line starting `Example` to the next blank line.
    static func exampleLines(_ help: String) -> [String] {
        var lines: [String] = []
        var inside = false
        for line in help.components(separatedBy: "\n") {
            if line.hasPrefix("Example") {
                inside = true
            } else if inside {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
                lines.append(line)
            }
        }
        return lines
    }

    /// Shell words up to a comment or a redirection, `$(…)` and quotes kept in one word.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var depth = 0
        var started = false
        for character in line {
            if let open = quote {
                word.append(character)
                if character == open, depth == 0 { quote = nil }
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                continue
            }
            if depth > 0 {
                word.append(character)
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                continue
            }
            if character == " " {
                if started { words.append(word) }
                word = ""
                started = false
                continue
            }
            if !started, "#><|;".contains(character) { break }
            started = true
            word.append(character)
            if character == "'" || character == "\"" { quote = character }
            if character == "(", word.hasSuffix("$(") { depth = 1 }
        }
        if started { words.append(word) }
        return words
    }

    /// What is wrong with `words` (a command line starting with the tool's name), or nil.
    static func problem(_ words: [String], root: Command) -> String? {
        var words = words
        if let first = words.first, first.range(of: #"^\w+=\$\((.*)\)$"#, options: .regularExpression) != nil {
            let inner = first[first.index(after: first.range(of: "=$(")!.lowerBound)...].dropFirst(2).dropLast()
            words = Self.words(String(inner))
        }
        guard words.first == "dbgen" else { return "does not start with dbgen" }
        var command = root
        var rest = Array(words.dropFirst())
        while let next = rest.first, let sub = command.subcommands[next] {
            command = sub
            rest.removeFirst()
        }
        // The group's default subcommand, as the dump names it (dbgen sync's: database); the
        // dump names none for dbgen itself, whose default is build.
        let fallback = command.path.isEmpty ? "build" : nil
        if let name = command.defaultSubcommand ?? fallback, let sub = command.subcommands[name] {
            command = sub
        }
        var given: Set<String> = []
        var positionals = 0
        var index = 0
        while index < rest.count {
            let word = rest[index]
            index += 1
            if word.hasPrefix("-"), word.count > 1, !word.hasPrefix("--") || word.count > 2 {
                let name = String(word.split(separator: "=", maxSplits: 1)[0])
                guard let takesValue = command.names[name] else {
                    return "\(command.path.joined(separator: " ")) has no option \(name)"
                }
                given.insert(name)
                if takesValue, !word.contains("=") {
                    guard index < rest.count else { return "\(name) needs a value" }
                    index += 1
                }
            } else {
                positionals += 1
            }
        }
        if positionals > command.positionals, !command.repeatingPositional {
            return "\(positionals) arguments, \(command.path.joined(separator: " ")) takes \(command.positionals)"
        }
        if positionals < command.requiredPositionals {
            return
                "\(positionals) arguments, \(command.path.joined(separator: " ")) needs \(command.requiredPositionals)"
        }
        for names in command.required where given.isDisjoint(with: names) {
            return "\(names.joined(separator: "/")) is required"
        }
        return nil
    }

    func testEveryExampleIsACommandAsWritten() throws {
        let root = try Self.commands("dbgen")
        var pending = [root]
        var checked = 0
        while let command = pending.popLast() {
            pending += command.subcommands.values
            let help = try BuiltProducts.run("dbgen", command.path + ["--help"], removing: ["COLUMNS"])
            let name = (["dbgen"] + command.path).joined(separator: " ")
            let lines = Self.exampleLines(help.stdoutText)
            var commandLine = ""
            for line in lines {
                XCTAssertTrue(line.hasPrefix("  "), "\(name) --help: an example line is cut by wrapping: \(line)")
                commandLine += commandLine.isEmpty ? line : " " + line.trimmingCharacters(in: .whitespaces)
                if commandLine.hasSuffix("\\") {
                    commandLine.removeLast()
                    continue
                }
                let words = Self.words(commandLine.trimmingCharacters(in: .whitespaces))
                if let problem = Self.problem(words, root: root) {
                    XCTFail("\(name) --help: `\(commandLine.trimmingCharacters(in: .whitespaces))`: \(problem)")
                }
                checked += 1
                commandLine = ""
            }
            XCTAssertEqual(commandLine, "", "\(name) --help: the last example ends with a continuation")
        }
        XCTAssertGreaterThan(checked, 20, "the examples of every command")
    }

    /// The checker itself: a made-up option, a missing required one and a wrapped line are found.
    func testTheCheckerFindsAWrongExample() throws {
        let root = try Self.commands("dbgen")
        XCTAssertNil(Self.problem(Self.words("dbgen feed verify feed --root root.json"), root: root))
        XCTAssertNil(Self.problem(Self.words("k=$(dbgen keys generate --out r.key)  # keep it"), root: root))
        XCTAssertNil(Self.problem(Self.words("dbgen diff a.sqlite b.sqlite > p.sql"), root: root))
        XCTAssertNil(Self.problem(Self.words("dbgen schema.txt -o out.sqlite --json"), root: root))
        XCTAssertEqual(
            Self.problem(Self.words("dbgen feed verify feed --root r.json --nope"), root: root),
            "feed verify has no option --nope")
        XCTAssertEqual(Self.problem(Self.words("dbgen feed verify feed"), root: root), "--root is required")
        XCTAssertEqual(
            Self.problem(Self.words("dbgen publish feed a.sqlite b.sqlite --key k"), root: root),
            "3 arguments, publish takes 2")
        XCTAssertEqual(Self.exampleLines("Examples:\n  dbgen a \\\nb\n\nX"), ["  dbgen a \\", "b"])
    }

    /// The target names `publish --help` gives are the names of the files publish writes.
    func testPublishHelpNamesTheFilesItWrites() throws {
        let workspace = try FeedWorkspace(self)
        try workspace.publishTwoReleases()
        let help = try BuiltProducts.run("dbgen", ["publish", "--help"], removing: ["COLUMNS"]).stdoutText
            .replacingOccurrences(of: "\n", with: " ")
        let named = help.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",.:;()")) }
            .filter { $0.hasPrefix("FEED/targets/") }
        XCTAssertEqual(named.count, 2, help)
        let patterns = named.map { name -> String in
            "^"
                + name.dropFirst("FEED/".count).replacingOccurrences(of: ".", with: "\\.")
                .replacingOccurrences(of: "SHA256", with: "[0-9a-f]{64}").replacingOccurrences(
                    of: "RESULT", with: "[0-9a-f]{64}"
                ).replacingOccurrences(of: "BASE", with: "[0-9a-f]{64}") + "$"
        }
        let written = workspace.tree("feed").keys.filter { $0.hasPrefix("targets/") }.sorted()
        XCTAssertEqual(written.count, 3, "two releases and a patch: \(written)")
        for file in written {
            XCTAssertTrue(
                patterns.contains { file.range(of: $0, options: .regularExpression) != nil },
                "publish wrote \(file), which publish --help's names (\(named)) do not describe")
        }
        for pattern in patterns {
            XCTAssertTrue(
                written.contains { $0.range(of: pattern, options: .regularExpression) != nil },
                "publish --help names \(pattern), which publish did not write: \(written)")
        }
    }
}
