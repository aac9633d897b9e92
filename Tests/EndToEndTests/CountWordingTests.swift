import Foundation
import ShipyardTestSupport
import XCTest

/// Every count a command prints agrees with its noun: `1 patch`, never `1 patches`. The commands
/// that print counts run where each count is 1 (a table of one row; a feed of one patch, pulled,
/// verified, fetched and pruned to one release), and what they print is searched for a `1`
/// followed by a plural.
final class CountWordingTests: XCTestCase {
    /// Words ending in "s" that are not plurals of a count.
    private static let notPlurals: Set<String> = [
        "is", "was", "has", "does", "as", "its", "this", "us", "plus", "status", "minus", "unless", "less",
    ]

    /// The `1 NOUNs` in `text`.
    static func pluralsAfterOne(_ text: String) -> [String] {
        let pattern = try? NSRegularExpression(pattern: #"(?<![0-9.,])1 ([a-z_]+s)\b"#)
        let range = NSRange(text.startIndex..., in: text)
        return (pattern?.matches(in: text, range: range) ?? []).compactMap { match in
            guard let word = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
                !notPlurals.contains(word), let whole = Range(match.range, in: text)
            else { return nil }
            return String(text[whole])
        }
    }

    func testTheSearchFindsAWrongPlural() {
        XCTAssertEqual(Self.pluralsAfterOne("2 releases, 1 patches, 11 files, 0.1 bytes"), ["1 patches"])
        XCTAssertEqual(Self.pluralsAfterOne("user_version 1 is in effect; 1 patch, 1 byte"), [])
    }

    func testEveryCountOfOneIsSingular() throws {
        let workspace = try FeedWorkspace(self)
        var printed: [String] = []
        func run(_ arguments: [String]) throws {
            let result = try workspace.succeed(arguments)
            printed.append("dbgen \(arguments.joined(separator: " ")):\n\(result.stdoutText)\(result.stderrText)")
        }
        try workspace.directory.write("one.txt", "CREATE TABLE t(x);\nINSERT INTO t VALUES (1);\n")
        try run(["build", "one.txt", "-o", "one.sqlite"])

        try workspace.key("k")
        try run(["feed", "init", "feed", "--key", "k"])
        try workspace.release("v1", version: 1)
        try workspace.release("v2", version: 2, every: 50)
        try run(["publish", "feed", "v1.sqlite", "--key", "k"])
        try run(["publish", "feed", "v2.sqlite", "--key", "k", "--patches-from", "1"])
        try run(["feed", "verify", "feed", "--root", "feed/root.json", "--bundled", "v1.sqlite"])
        let nginx = try NginxServer(serving: workspace.directory.url("feed"))
        defer { nginx.stop() }
        let url = nginx.url("/").absoluteString
        try run(["feed", "pull", url, "pulled", "--root", "feed/root.json"])
        try run(["fetch", url, "--root", "feed/root.json", "--bundled", "v1.sqlite", "--updates", "updates"])
        try run(["feed", "prune", "feed", "--key", "k", "--keep", "1"])

        let all = printed.joined(separator: "\n")
        XCTAssertTrue(all.contains("1 patch"), "a count of one patch was printed: \(all)")
        XCTAssertTrue(all.contains("1 table, 1 row"), all)
        XCTAssertEqual(Self.pluralsAfterOne(all), [], all)
    }
}
