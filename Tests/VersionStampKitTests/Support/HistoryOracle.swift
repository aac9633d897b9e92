import Foundation
import VersionStampKit
import XCTest

/// git's answers already asked for one HEAD: a count does not depend on the tag pattern, nor a
/// description on the paths, so a matrix of queries asks git each once.
final class GitAnswerMemo {
    var answers: [String: String] = [:]

    func answer(_ key: String, _ ask: () throws -> String) rethrows -> String {
        if let known = answers[key] { return known }
        let value = try ask()
        answers[key] = value
        return value
    }
}

/// git's answers for a `RevisionQuery` (the oracle of the history tests), and the assertion
/// that versionstamp's reader gives the same.
extension RevisionTestRepository {
    /// `git rev-list --count [--first-parent] REV [-- PATH...]`.
    func gitCount(_ revision: String = "HEAD", _ query: RevisionQuery) throws -> Int {
        var arguments = ["rev-list", "--count"]
        if query.firstParent { arguments.append("--first-parent") }
        arguments.append(revision)
        if !query.paths.isEmpty { arguments += ["--"] + query.paths }
        return Int(try runGit(arguments).output) ?? -1
    }

    /// `git describe --tags --long --always --dirty [--first-parent] [--match GLOB]`.
    func gitDescribe(_ query: RevisionQuery) throws -> String {
        var arguments = ["describe", "--tags", "--long", "--always", "--dirty"]
        if query.firstParent { arguments.append("--first-parent") }
        if let pattern = query.tagPattern { arguments += ["--match", pattern] }
        return try runGit(arguments).output
    }

    /// The reader's answers for `query` (no cache).
    func versionstamp(_ query: RevisionQuery, requirements: RevisionRequirements = [.count, .describe]) throws
        -> RevisionInfo
    {
        let reader = try RevisionReader(
            discoveringFrom: root.path, environment: environment, query: query, caching: .off)
        return try reader.revision(requirements)
    }

    /// The first of `paths` that names nothing in HEAD's tree (`git ls-tree HEAD -- PATH`
    /// lists nothing), nil when each names something.
    func firstPathMissingAtHead(_ paths: [String]) throws -> String? {
        for path in paths where path != "." {
            if try runGit(["ls-tree", "HEAD", "--", path]).output.isEmpty { return path }
        }
        return nil
    }

    /// Asserts that `{count}`, `{describe}`, `{tag}` and `{distance}` for `query` equal git's;
    /// or, when a path of the query names nothing in HEAD's tree (git would count 0), that the
    /// reader refuses it, naming the path.
    func assertHistoryMatchesGit(
        _ query: RevisionQuery, _ label: String = "", memo: GitAnswerMemo = GitAnswerMemo(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let context = "\(label) \(query)"
        let missing = try memo.answer("missing \(query.paths)") { try firstPathMissingAtHead(query.paths) ?? "" }
        if !missing.isEmpty {
            XCTAssertThrowsError(try versionstamp(query), "missing path \(context)", file: file, line: line) { error in
                XCTAssertEqual(
                    (error as? VersionStampError)?.code, .pathNotInHead, "\(error) \(context)", file: file, line: line)
                XCTAssertEqual((error as? VersionStampError)?.path, missing, context, file: file, line: line)
            }
            return
        }
        let info = try versionstamp(query)
        let count = try memo.answer("count \(query.firstParent) \(query.paths)") { String(try gitCount("HEAD", query)) }
        XCTAssertEqual(String(info.count), count, "count \(context)", file: file, line: line)
        let described = try memo.answer("describe \(query.firstParent) \(query.tagPattern ?? "")") {
            try gitDescribe(query)
        }
        XCTAssertEqual(info.describe, described, "describe \(context)", file: file, line: line)
        var parts = described.components(separatedBy: "-")
        if parts.last == "dirty" { parts.removeLast() }
        guard parts.count >= 3, parts[parts.count - 1].hasPrefix("g") else {
            XCTAssertNil(info.tag, "tag \(context)", file: file, line: line)
            XCTAssertEqual(info.distance, info.count, "distance without a tag \(context)", file: file, line: line)
            return
        }
        parts.removeLast()
        let depth = parts.removeLast()
        let tag = parts.joined(separator: "-")
        XCTAssertEqual(info.tag, tag, "tag \(context)", file: file, line: line)
        let distance =
            query.firstParent || !query.paths.isEmpty
            ? String(try gitCount("refs/tags/\(tag)..HEAD", query)) : depth
        XCTAssertEqual(String(info.distance), distance, "distance \(context)", file: file, line: line)
    }
}
