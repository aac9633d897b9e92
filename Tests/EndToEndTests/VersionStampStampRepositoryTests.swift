import Foundation
import ShipyardTestSupport
import XCTest

/// `versionstamp stamp` against a real git repository, with git as the oracle.
final class VersionStampStampRepositoryTests: XCTestCase {
    private var fixture: VersionStampGitFixture!
    private var repository: URL { fixture.root }

    override func setUpWithError() throws {
        fixture = try VersionStampGitFixture(self)
        try git(["init", "-q", "-b", "main"])
        for index in 1...3 {
            try Data("line \(index)\n".utf8).write(to: repository.appendingPathComponent("file.txt"))
            try git(["add", "file.txt"])
            try git(["commit", "-q", "-m", "commit \(index)"])
        }
    }

    @discardableResult
    private func git(_ arguments: [String]) throws -> String {
        try fixture.git(arguments)
    }

    private func stamp(_ arguments: [String]) throws -> ProcessResult {
        try fixture.versionstamp(["stamp"] + arguments, in: repository)
    }

    private func plistValue(_ file: String, _ key: String) throws -> String {
        let result = try Oracle.python3.run(["-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))[sys.argv[2]])",
                                             repository.appendingPathComponent(file).path, key])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    private func writePlist(_ name: String, key: String, value: String) throws {
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>\(key)</key>
        \t<string>\(value)</string>
        </dict>
        </plist>

        """.utf8).write(to: repository.appendingPathComponent(name))
    }

    func testPlaceholderModeUsesCountAndDirtyMarker() throws {
        // version.plist is untracked, so the work tree is clean: r{count}.
        try writePlist("version.plist", key: "Version", value: "r0000")
        let result = try stamp(["version.plist"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(try plistValue("version.plist", "Version"), "r" + (try git(["rev-list", "--count", "HEAD"])))

        // A tracked file modified: the dirty marker is appended.
        try writePlist("version.plist", key: "Version", value: "r0000")
        try Data("changed\n".utf8).write(to: repository.appendingPathComponent("file.txt"))
        let dirty = try stamp(["version.plist", "--dirty-marker", "+"])
        XCTAssertEqual(dirty.status, 0, dirty.stderrText)
        XCTAssertEqual(try plistValue("version.plist", "Version"), "r" + (try git(["rev-list", "--count", "HEAD"])) + "+")
    }

    func testKeyModeAndFormatFromASubdirectory() throws {
        let sub = repository.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try writePlist("App/Info.plist", key: "CFBundleVersion", value: "1")
        let result = try stamp(["App/Info.plist", "--repo", sub.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(try plistValue("App/Info.plist", "CFBundleVersion"), try git(["rev-list", "--count", "HEAD"]))

        let sha = try stamp(["App/Info.plist", "--key", "CFBundleVersion", "--format", "{sha}", "--check"])
        XCTAssertEqual(sha.status, 2, "a sha breaks the App Store rule: \(sha.stdoutText)")
        try writePlist("App/Label.plist", key: "Commit", value: "x")
        let label = try stamp(["App/Label.plist", "--key", "Commit", "--format", "{short}-{branch}"])
        XCTAssertEqual(label.status, 0, label.stderrText)
        XCTAssertEqual(try plistValue("App/Label.plist", "Commit"),
                       (try git(["rev-parse", "--short", "HEAD"])) + "-" + (try git(["rev-parse", "--abbrev-ref", "HEAD"])))
    }

    func testDefaultPlaceholderFormatInBundleVersionBreaksTheAppStoreRule() throws {
        try writePlist("Info.plist", key: "CFBundleVersion", value: "r0000")
        let result = try stamp(["Info.plist"])
        XCTAssertEqual(result.status, 1)
        let count = try git(["rev-list", "--count", "HEAD"])
        XCTAssertTrue(result.stderrText.hasPrefix("Info.plist:5: error: CFBundleVersion \"r\(count)\" does not follow the App Store rule"), result.stderrText)
    }

    func testGeneratedFilesHoldGitsAnswers() throws {
        try git(["tag", "v1.0", "HEAD~1"])
        let result = try stamp(["--json", "version.json"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let output = try Oracle.python3.run(["-c", """
        import json, sys
        v = json.load(open(sys.argv[1]))
        print(v['version'], v['count'], v['sha'], v['short'], v['describe'], v['tag'], v['distance'], v['branch'], v['dirty'], v['date'], v['timestamp'], v['release'], repr(v['prerelease']))
        """, repository.appendingPathComponent("version.json").path])
        // version.json is untracked, so the tree is clean.
        let count = try git(["rev-list", "--count", "HEAD"])
        let timestamp = try git(["log", "-1", "--format=%ct"])
        let date = try git(["log", "-1", "--format=%cd", "--date=format-local:%Y%m%d"])
        let expected = [count, count, try git(["rev-parse", "HEAD"]), try git(["rev-parse", "--short", "HEAD"]),
                        try git(["describe", "--tags", "--long", "--always", "--dirty"]), "v1.0", "1", "main", "False",
                        date, timestamp, "1.0", "''"].joined(separator: " ")
        XCTAssertEqual(output.stdoutText.trimmingCharacters(in: .newlines), expected)
    }
}
