import Foundation
import ShipyardTestSupport
@testable import TUF
import XCTest

/// Delegation path patterns and hash-bin names match python-tuf's `DelegatedRole.is_delegated_path` and
/// `SuccinctRoles.get_role_for_target`.
final class PathPatternTests: XCTestCase {
    static let patterns = [
        "*", "*.txt", "dir/*", "dir/*.db", "a?c", "[abc]x", "[!abc]x", "[a-c]*", "*/*", "x[", "[]]z",
        "dir/", "", "é*", "data/[0-9][0-9].db", "**",
    ]
    static let paths = [
        "file.txt", "dir/file.txt", "dir/food.db", "dir/sub/food.db", "abc", "axc", "ax", "bx", "dx",
        "x[", "]z", "dir/", "", "éclair", "data/42.db", "data/4.db", "a/b", "]x",
    ]

    func testPatternsMatchAsPythonTUFs() throws {
        let script = """
            import json, sys
            from tuf.api.metadata import DelegatedRole
            patterns, paths = json.loads(sys.argv[1]), json.loads(sys.argv[2])
            print(json.dumps([[DelegatedRole("r", [], 1, False, paths=[p]).is_delegated_path(t) for t in paths]
                              for p in patterns]))
            """
        func json(_ strings: [String]) throws -> String {
            String(decoding: try CanonicalJSON.encode(.array(strings.map { .string($0) })), as: UTF8.self)
        }
        let printed = try PythonTUF.run(script, [try json(Self.patterns), try json(Self.paths)])
        let output = try JSONParser().parse(Data(printed.utf8))
        guard case .array(let rows) = output else { return XCTFail("\(output)") }
        for (pattern, row) in zip(Self.patterns, rows) {
            guard case .array(let results) = row else { return XCTFail("\(row)") }
            for (path, result) in zip(Self.paths, results) {
                XCTAssertEqual(
                    .bool(PathPattern.matches(path, pattern: pattern)), result, "pattern \(pattern), path \(path)"
                )
            }
        }
    }

    func testHashBinsArePythonTUFs() throws {
        let script = """
            import json, sys
            from tuf.api.metadata import SuccinctRoles
            print(json.dumps([SuccinctRoles([], 1, bits, "bin").get_role_for_target(t)
                              for bits in (1, 5, 8, 13, 32) for t in json.loads(sys.argv[1])]))
            """
        let paths = ["file.txt", "dir/food.db", "", "é"]
        let argument = String(decoding: try CanonicalJSON.encode(.array(paths.map { .string($0) })), as: UTF8.self)
        let output = try JSONParser().parse(Data(try PythonTUF.run(script, [argument]).utf8))
        var expected: [JSONValue] = []
        for bits in [1, 5, 8, 13, 32] {
            let document = """
                {"keys": {}, "succinct_roles":
                    {"keyids": [], "threshold": 1, "bit_length": \(bits), "name_prefix": "bin"}}
                """
            let roles = try XCTUnwrap(
                try Delegations(
                    try JSONFieldReader(
                        try JSONParser().parse(Data(document.utf8)), document: "test", path: "delegations"
                    )
                ).succinctRoles)
            for path in paths {
                let name = roles.roleName(for: path)
                XCTAssertTrue(roles.contains(roleName: name))
                expected.append(.string(name))
            }
        }
        XCTAssertEqual(output, .array(expected))
    }
}
