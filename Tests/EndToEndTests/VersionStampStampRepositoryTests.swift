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
        let result = try Oracle.python3.run([
            "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))[sys.argv[2]])",
            repository.appendingPathComponent(file).path, key,
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    private func writePlist(_ name: String, key: String, value: String) throws {
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>\(key)</key>
            \t<string>\(value)</string>
            </dict>
            </plist>

            """.utf8
        ).write(to: repository.appendingPathComponent(name))
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
        XCTAssertEqual(
            try plistValue("version.plist", "Version"), "r" + (try git(["rev-list", "--count", "HEAD"])) + "+")
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
        XCTAssertEqual(
            try plistValue("App/Label.plist", "Commit"),
            (try git(["rev-parse", "--short", "HEAD"])) + "-" + (try git(["rev-parse", "--abbrev-ref", "HEAD"])))
    }

    func testDefaultPlaceholderFormatInBundleVersionBreaksTheAppStoreRule() throws {
        try writePlist("Info.plist", key: "CFBundleVersion", value: "r0000")
        let result = try stamp(["Info.plist"])
        XCTAssertEqual(result.status, 1)
        let count = try git(["rev-list", "--count", "HEAD"])
        XCTAssertTrue(
            result.stderrText.hasPrefix(
                "Info.plist:5: error: CFBundleVersion \"r\(count)\" does not follow the App Store rule"),
            result.stderrText)
    }

    func testGeneratedFilesHoldGitsAnswers() throws {
        try git(["tag", "v1.0", "HEAD~1"])
        let result = try stamp(["--json", "version.json"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let output = try Oracle.python3.run([
            "-c",
            """
            import json, sys
            v = json.load(open(sys.argv[1]))
            print(v['version'], v['count'], v['sha'], v['short'], v['describe'], v['tag'], v['distance'], v['branch'], v['dirty'], v['date'], v['timestamp'], v['release'], repr(v['prerelease']))
            """, repository.appendingPathComponent("version.json").path,
        ])
        // version.json is untracked, so the tree is clean.
        let count = try git(["rev-list", "--count", "HEAD"])
        let timestamp = try git(["log", "-1", "--format=%ct"])
        let date = try git(["log", "-1", "--format=%cd", "--date=format-local:%Y%m%d"])
        let expected = [
            count, count, try git(["rev-parse", "HEAD"]), try git(["rev-parse", "--short", "HEAD"]),
            try git(["describe", "--tags", "--long", "--always", "--dirty"]), "v1.0", "1", "main", "False",
            date, timestamp, "1.0", "''",
        ].joined(separator: " ")
        XCTAssertEqual(output.stdoutText.trimmingCharacters(in: .newlines), expected)
    }

    /// The documented way to stamp a plist kept in the repository: `--output` writes the built
    /// copy and leaves the tracked source as it is, so the tree stays clean (no `{dirty}`
    /// marker) and every later build finds the placeholder again. In place, the second run
    /// fails: the placeholder is gone.
    func testOutputStampsTheBuiltCopyAndKeepsTheTrackedSource() throws {
        try writePlist("version.plist", key: "Version", value: "r0000")
        try git(["add", "version.plist"])
        try git(["commit", "-q", "-m", "version.plist"])
        let source = repository.appendingPathComponent("version.plist")
        let original = try Data(contentsOf: source)
        let built = fixture.base.appendingPathComponent("build products")
        try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
        let output = built.appendingPathComponent("version.plist")
        for round in 1...2 {
            let result = try stamp(["version.plist", "--output", output.path])
            XCTAssertEqual(result.status, 0, "round \(round): \(result.stderrText)")
            XCTAssertEqual(try Data(contentsOf: source), original, "round \(round): the tracked source is untouched")
            XCTAssertEqual(
                try git(["status", "--porcelain", "--untracked-files=no"]), "", "round \(round): the tree stays clean")
            let count = try git(["rev-list", "--count", "HEAD"])
            let stamped = try Oracle.python3.run([
                "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['Version'])", output.path,
            ])
            XCTAssertEqual(stamped.stdoutText, "r\(count)\n", "round \(round)")
            try git(["commit", "-q", "--allow-empty", "-m", "round \(round)"])
        }
        // --check and --dry-run look at the output file and write nothing.
        let check = try stamp(["version.plist", "--output", output.path, "--check"])
        XCTAssertEqual(check.status, 1, "a new commit: the output would change")
        XCTAssertTrue(check.stdoutText.hasPrefix("\(output.path):5: Version: \"r0000\" → \"r"), check.stdoutText)
        let dryRun = try stamp(["version.plist", "--output", output.path, "--dry-run"])
        XCTAssertEqual(dryRun.status, 0, dryRun.stderrText)
        XCTAssertTrue(
            dryRun.stdoutText.hasSuffix("dry run: nothing written (1 file would change)\n"), dryRun.stdoutText)
        XCTAssertEqual(
            try Oracle.python3.run([
                "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['Version'])", output.path,
            ]).stdoutText,
            "r" + String(Int(try git(["rev-list", "--count", "HEAD"]))! - 1) + "\n", "not written")
        XCTAssertEqual(try stamp(["version.plist", "--output", output.path]).status, 0)
        XCTAssertEqual(try stamp(["version.plist", "--output", output.path, "--check"]).status, 0)
        // Key mode too; and one output for two plists is a usage error.
        try writePlist("Info.plist", key: "CFBundleVersion", value: "1")
        let info = built.appendingPathComponent("Info.plist")
        XCTAssertEqual(try stamp(["Info.plist", "--output", info.path, "--key", "CFBundleVersion"]).status, 0)
        XCTAssertEqual(try plistValue("Info.plist", "CFBundleVersion"), "1")
        XCTAssertEqual(
            try Oracle.python3.run([
                "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['CFBundleVersion'])",
                info.path,
            ]).stdoutText,
            try git(["rev-list", "--count", "HEAD"]) + "\n")
        let two = try stamp(["Info.plist", "version.plist", "--output", info.path])
        XCTAssertEqual(two.status, 64, two.stderrText)
        XCTAssertTrue(two.stderrText.contains("--output takes exactly one PLIST"), two.stderrText)
    }

    /// `--cache-dir DIR`: the history cache is written in DIR, nothing under the git directory
    /// (a sandboxed build may write only its own directory).
    func testCacheDirectoryKeepsTheCacheThere() throws {
        let cache = fixture.base.appendingPathComponent("plugin work")
        for round in 1...2 {
            let result = try fixture.versionstamp([
                "print", "--repo", repository.path, "--cache-dir", cache.path, "--format", "{count} {describe}",
            ])
            XCTAssertEqual(result.status, 0, result.stderrText)
            XCTAssertEqual(
                result.stdoutText,
                (try git(["rev-list", "--count", "HEAD"])) + " "
                    + (try git(["describe", "--tags", "--long", "--always", "--dirty"])) + "\n", "round \(round)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("history").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: repository.appendingPathComponent(".git/versionstamp").path))
        try writePlist("Info.plist", key: "CFBundleVersion", value: "1")
        XCTAssertEqual(try stamp(["Info.plist", "--cache-dir", cache.path]).status, 0)
        XCTAssertEqual(try plistValue("Info.plist", "CFBundleVersion"), try git(["rev-list", "--count", "HEAD"]))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: repository.appendingPathComponent(".git/versionstamp").path))
    }
}
