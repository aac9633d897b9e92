import Foundation
import ShipyardTestSupport
import XCTest

/// `versionstamp print|stamp --config FILE`: the release-numbering options of
/// `versionstamp.json`, read when the command runs (the build-tool plugin passes the path, so
/// editing the file changes the next build's version). Counts are compared with git's.
final class VersionStampConfigurationFileTests: XCTestCase {
    /// main: A(app) ─ B(lib) ─ M(merge of topic: T1 app, T2 lib) ─ C(app), tags v1.0.0 (A), v2.0.0 (M).
    private func makeRepository() throws -> VersionStampGitFixture {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        try fixture.commit("app/a.txt", message: "A")
        try fixture.run("tag", "v1.0.0")
        try fixture.commit("lib/b.txt", message: "B")
        try fixture.run("checkout", "-q", "-b", "topic", "HEAD~1")
        try fixture.commit("app/t1.txt", message: "T1")
        try fixture.commit("lib/t2.txt", message: "T2")
        try fixture.run("checkout", "-q", "main")
        try fixture.run("merge", "-q", "--no-ff", "-m", "M", "topic")
        try fixture.run("tag", "release-2.0.0")
        try fixture.commit("app/c.txt", message: "C")
        return fixture
    }

    private func printed(
        _ fixture: VersionStampGitFixture, _ arguments: [String], extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path] + arguments, extra: extra)
        XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    private func writeConfiguration(_ fixture: VersionStampGitFixture, _ text: String) throws -> String {
        let url = fixture.base.appendingPathComponent("versionstamp.json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testEveryKeyActsAsItsOption() throws {
        let fixture = try makeRepository()
        let config = try writeConfiguration(
            fixture,
            """
            {"format": "{version}+{count}", "tagPattern": "release-*", "firstParent": true,
             "paths": ["app"], "offset": 1000, "buildNumberEnv": "CI_BUILD_NUMBER"}
            """)
        let count = Int(try fixture.git(["rev-list", "--count", "--first-parent", "HEAD", "--", "app"]))!
        XCTAssertEqual(try printed(fixture, ["--config", config]), "2.0.0+\(count + 1000)")
        XCTAssertEqual(try printed(fixture, ["--config", config], extra: ["CI_BUILD_NUMBER": "7"]), "2.0.0+1007")
        // The same answer as the options themselves give.
        XCTAssertEqual(
            try printed(fixture, ["--config", config]),
            try printed(
                fixture,
                [
                    "--format", "{version}+{count}", "--tag-pattern", "release-*", "--first-parent",
                    "--path", "app", "--offset", "1000", "--build-number-env", "CI_BUILD_NUMBER",
                ]))
    }

    func testTheCommandLineWinsOverTheFile() throws {
        let fixture = try makeRepository()
        let config = try writeConfiguration(
            fixture, #"{"format": "{count}", "tagPattern": "release-*", "offset": 1000, "paths": ["lib"]}"#)
        let all = Int(try fixture.git(["rev-list", "--count", "HEAD"]))!
        let app = Int(try fixture.git(["rev-list", "--count", "HEAD", "--", "app"]))!
        XCTAssertEqual(try printed(fixture, ["--config", config, "--offset", "0", "--path", "app"]), String(app))
        XCTAssertEqual(
            try printed(fixture, ["--config", config, "--format", "{tag}", "--tag-pattern", "v*"]), "v1.0.0")
        XCTAssertNotEqual(app, all)
    }

    func testStampReadsTheFileToo() throws {
        let fixture = try makeRepository()
        let config = try writeConfiguration(fixture, #"{"offset": 100}"#)
        let plist = try InfoPlistFixture.write(in: fixture.base, short: "1.0", version: "1")
        let result = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--config", config, "--quiet",
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let count = Int(try fixture.git(["rev-list", "--count", "HEAD"]))!
        let value = try Oracle.python3.run([
            "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['CFBundleVersion'])", plist.path,
        ])
        XCTAssertEqual(value.stdoutText.trimmingCharacters(in: .newlines), String(count + 100))
    }

    func testAnInvalidFileIsAnErrorNamingFileLineAndKeyAndWritesNothing() throws {
        let fixture = try makeRepository()
        let plist = try InfoPlistFixture.write(in: fixture.base, short: "1.0", version: "1")
        let before = try Data(contentsOf: plist)
        let cases: [(String, String)] = [
            ("{\n  \"offset\": \"100\"\n}\n", "versionstamp.json:2: error: 'offset' must be an integer"),
            (
                "{\"offset\": 1,\n \"colour\": 1}\n",
                "versionstamp.json:2: error: unknown key 'colour'; the keys are buildNumberEnv, firstParent, format, offset, paths, tagPattern"
            ),
            ("{\"firstParent\": \"yes\"}", "versionstamp.json:1: error: 'firstParent' must be true or false"),
            ("{\"paths\": \"app\"}", "versionstamp.json:1: error: 'paths' must be an array of strings"),
            ("{\"tagPattern\": \"\"}", "versionstamp.json:1: error: 'tagPattern' must not be empty"),
            ("{\"offset\": 1", "versionstamp.json:1: error: not valid JSON"),
        ]
        for (text, expected) in cases {
            _ = try writeConfiguration(fixture, text)
            for command in [["print"], ["stamp", plist.path]] {
                let result = try fixture.versionstamp(
                    command + ["--repo", fixture.root.path, "--config", "versionstamp.json"])
                XCTAssertEqual(result.status, 1, text)
                XCTAssertTrue(result.stderrText.hasPrefix(expected), "\(text): \(result.stderrText)")
            }
        }
        let missing = try fixture.versionstamp(["print", "--repo", fixture.root.path, "--config", "nope.json"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(
            missing.stderrText, "versionstamp: error: cannot read the configuration file \"nope.json\": no such file\n")
        XCTAssertEqual(try Data(contentsOf: plist), before)
    }
}
