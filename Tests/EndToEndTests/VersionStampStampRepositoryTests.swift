import Foundation
import XCTest

/// `versionstamp stamp` against a real git repository, with git as the oracle. These need the
/// revision reader (libgit2); they skip while `VersionContext.load` is still the stub.
final class VersionStampStampRepositoryTests: XCTestCase {
    private var repository: URL!

    override func setUpWithError() throws {
        repository = try makeTemporaryDirectory(self, name: "versionstamp-stamp-repo")
        try git(["init", "-q", "-b", "main"])
        for index in 1...3 {
            try Data("line \(index)\n".utf8).write(to: repository.appendingPathComponent("file.txt"))
            try git(["add", "file.txt"])
            try git(["commit", "-q", "-m", "commit \(index)"])
        }
    }

    @discardableResult
    private func git(_ arguments: [String]) throws -> String {
        let result = try CommandRunner.run(CommandRunner.which("git") ?? "/usr/bin/git",
                                           ["-c", "user.name=Test", "-c", "user.email=test@example.com",
                                            "-c", "commit.gpgsign=false"] + arguments,
                                           in: repository, environment: ["GIT_CONFIG_NOSYSTEM": "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func stamp(_ arguments: [String]) throws -> CommandResult {
        let result = try CommandRunner.runProduct("versionstamp", ["stamp"] + arguments, in: repository,
                                                  removingEnvironment: ["VERSIONSTAMP_VERSION", "BUILT_PRODUCTS_DIR", "INFOPLIST_PATH"])
        return result
    }

    private func plistValue(_ file: String, _ key: String) throws -> String {
        let result = try CommandRunner.run(CommandRunner.which("python3") ?? "/usr/bin/python3",
                                           ["-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))[sys.argv[2]])",
                                            repository.appendingPathComponent(file).path, key])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .newlines)
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
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try plistValue("version.plist", "Version"), "r" + (try git(["rev-list", "--count", "HEAD"])))

        // A tracked file modified: the dirty marker is appended.
        try writePlist("version.plist", key: "Version", value: "r0000")
        try Data("changed\n".utf8).write(to: repository.appendingPathComponent("file.txt"))
        let dirty = try stamp(["version.plist", "--dirty-marker", "+"])
        XCTAssertEqual(dirty.status, 0, dirty.stderr)
        XCTAssertEqual(try plistValue("version.plist", "Version"), "r" + (try git(["rev-list", "--count", "HEAD"])) + "+")
    }

    func testKeyModeAndFormatFromASubdirectory() throws {
        let sub = repository.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try writePlist("App/Info.plist", key: "CFBundleVersion", value: "1")
        let result = try stamp(["App/Info.plist", "--repo", sub.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try plistValue("App/Info.plist", "CFBundleVersion"), try git(["rev-list", "--count", "HEAD"]))

        let sha = try stamp(["App/Info.plist", "--key", "CFBundleVersion", "--format", "{sha}", "--check"])
        XCTAssertEqual(sha.status, 2, "a sha breaks the App Store rule: \(sha.stdout)")
        try writePlist("App/Label.plist", key: "Commit", value: "x")
        let label = try stamp(["App/Label.plist", "--key", "Commit", "--format", "{short}-{branch}"])
        XCTAssertEqual(label.status, 0, label.stderr)
        XCTAssertEqual(try plistValue("App/Label.plist", "Commit"),
                       (try git(["rev-parse", "--short", "HEAD"])) + "-" + (try git(["rev-parse", "--abbrev-ref", "HEAD"])))
    }

    func testDefaultPlaceholderFormatInBundleVersionBreaksTheAppStoreRule() throws {
        try writePlist("Info.plist", key: "CFBundleVersion", value: "r0000")
        let result = try stamp(["Info.plist"])
        XCTAssertEqual(result.status, 1)
        let count = try git(["rev-list", "--count", "HEAD"])
        XCTAssertTrue(result.stderr.hasPrefix("Info.plist:5: error: CFBundleVersion \"r\(count)\" does not follow the App Store rule"), result.stderr)
    }

    func testGeneratedFilesHoldGitsAnswers() throws {
        try git(["tag", "v1.0", "HEAD~1"])
        let result = try stamp(["--json", "version.json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let output = try CommandRunner.run(CommandRunner.which("python3") ?? "/usr/bin/python3", ["-c", """
        import json, sys
        v = json.load(open(sys.argv[1]))
        print(v['version'], v['count'], v['sha'], v['short'], v['describe'], v['tag'], v['distance'], v['branch'], v['dirty'], v['date'], v['timestamp'])
        """, repository.appendingPathComponent("version.json").path])
        // version.json is untracked, so the tree is clean.
        let count = try git(["rev-list", "--count", "HEAD"])
        let timestamp = try git(["log", "-1", "--format=%ct"])
        let date = try CommandRunner.run(CommandRunner.which("git") ?? "/usr/bin/git",
                                         ["log", "-1", "--format=%cd", "--date=format-local:%Y%m%d"], in: repository,
                                         environment: ["TZ": "UTC"]).stdout.trimmingCharacters(in: .newlines)
        let expected = [count, count, try git(["rev-parse", "HEAD"]), try git(["rev-parse", "--short", "HEAD"]),
                        try git(["describe", "--tags", "--long", "--always", "--dirty"]), "v1.0", "1", "main", "False",
                        date, timestamp].joined(separator: " ")
        XCTAssertEqual(output.stdout.trimmingCharacters(in: .newlines), expected)
    }
}
