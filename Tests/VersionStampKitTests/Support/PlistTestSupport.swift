import Foundation
import ShipyardTestSupport
import XCTest
@testable import VersionStampKit

/// Helpers for the plist and stamp tests: fixtures, temporary directories, and python3's
/// plistlib as an independent oracle (through ShipyardTestSupport).
enum PlistTestSupport {
    /// Tests/VersionStampKitTests/Fixtures, found from this file's path (no resources declared).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// A context that renders every format as `version` (what `VERSIONSTAMP_VERSION` gives).
    static func context(_ version: String) -> VersionContext {
        VersionContext(revision: nil, override: version)
    }

    /// A ``TemporaryDirectory`` kept until `test` ends (then removed).
    static func temporaryDirectory(_ test: XCTestCase) throws -> URL {
        let directory = try TemporaryDirectory("versionstamp-plist", removedAfter: test)
        test.addTeardownBlock { withExtendedLifetime(directory) {} }
        return directory.url
    }

    /// Runs a python3 script (the oracle must be installed) and returns its standard output.
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let result = try Oracle.python3.run(["-c", script] + arguments)
        guard result.status == 0 else {
            throw NSError(
                domain: "python3", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderrText])
        }
        return result.stdoutText
    }

    /// What plistlib says changed between two plist files: the string values that differ, by
    /// colon key path, and any other difference (type, keys, count, non-string value).
    static func plistlibDifferences(_ original: URL, _ stamped: URL) throws -> (
        changed: [String: String], problems: [String]
    ) {
        let script = """
            import json, plistlib, sys
            with open(sys.argv[1], 'rb') as f: a = plistlib.load(f)
            with open(sys.argv[2], 'rb') as f: b = plistlib.load(f)
            changed, problems = {}, []
            def walk(x, y, path):
                where = ':'.join(path) or ':'
                if type(x) is not type(y): problems.append('type at ' + where); return
                if isinstance(x, dict):
                    if sorted(x) != sorted(y): problems.append('keys at ' + where); return
                    for k in x: walk(x[k], y[k], path + [k])
                elif isinstance(x, list):
                    if len(x) != len(y): problems.append('count at ' + where); return
                    for i, (p, q) in enumerate(zip(x, y)): walk(p, q, path + [str(i)])
                elif x != y:
                    if isinstance(x, str): changed[where] = y
                    else: problems.append('value at ' + where)
            walk(a, b, [])
            print(json.dumps({'changed': changed, 'problems': problems}))
            """
        let output = try python(script, [original.path, stamped.path])
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        return (
            object?["changed"] as? [String: String] ?? [:],
            object?["problems"] as? [String] ?? ["unreadable oracle output"]
        )
    }
}
