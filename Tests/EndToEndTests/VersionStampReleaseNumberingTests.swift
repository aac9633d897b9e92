import Foundation
import ShipyardTestSupport
import XCTest

/// Release numbering through the built `versionstamp`: tag patterns, `{version}` and
/// `{prerelease}`, first-parent and path-limited counts, offsets, CI build numbers, `--set`,
/// build-setting references and the xcconfig settings Xcode reads. Every count and tag is
/// compared with the git CLI's own answer on repositories built here.
final class VersionStampReleaseNumberingTests: XCTestCase {
    /// A history with two directories, merges that bring changes to them, and tags of several
    /// families (annotated and lightweight, releases and prereleases):
    ///
    ///     main:  A(app) ─ B(lib) ─ M1(merge of topic: app+lib) ─ C(docs) ─ M2(merge of fix: lib) ─ D(app)
    ///     tags:  v1.0.0 (annotated, A), docs-7 (B), release-2.1-rc1 (M1), v2.0.0-beta.1 (C, annotated)
    private func makeRepository() throws -> VersionStampGitFixture {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        try fixture.commit("app/a.txt", contents: "a\n", message: "A")
        try fixture.run("tag", "-a", "v1.0.0", "-m", "first release")
        try fixture.commit("lib/b.txt", contents: "b\n", message: "B")
        try fixture.run("tag", "docs-7")
        try fixture.run("checkout", "-q", "-b", "topic", "HEAD~1")
        try fixture.commit("app/topic.txt", contents: "t1\n", message: "T1")
        try fixture.commit("lib/topic.txt", contents: "t2\n", message: "T2")
        try fixture.run("checkout", "-q", "main")
        try fixture.run("merge", "-q", "--no-ff", "-m", "M1", "topic")
        try fixture.run("tag", "release-2.1-rc1")
        try fixture.commit("docs/c.txt", contents: "c\n", message: "C")
        try fixture.run("tag", "-a", "v2.0.0-beta.1", "-m", "beta")
        try fixture.run("checkout", "-q", "-b", "fix", "HEAD~1")
        try fixture.commit("lib/fix.txt", contents: "f\n", message: "F")
        try fixture.run("checkout", "-q", "main")
        try fixture.run("merge", "-q", "--no-ff", "-m", "M2", "fix")
        try fixture.commit("app/d.txt", contents: "d\n", message: "D")
        return fixture
    }

    /// `versionstamp print --repo ROOT ARGUMENTS`, expected to succeed; its output without the newline.
    private func printed(
        _ fixture: VersionStampGitFixture, _ arguments: [String], extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path] + arguments, extra: extra)
        XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
        XCTAssertEqual(result.stderrText, "", file: file, line: line)
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    private func writeInfoPlist(_ fixture: VersionStampGitFixture, short: String = "1.0", version: String = "1") throws
        -> URL
    {
        try InfoPlistFixture.write(in: fixture.base, short: short, version: version)
    }

    /// A plist value as python3's plistlib reads it.
    private func plistValue(_ url: URL, _ key: String) throws -> String {
        let result = try Oracle.python3.run([
            "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))[sys.argv[2]])",
            url.path, key,
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    // MARK: Tag patterns and {version}

    func testTagPatternMatchesGitDescribe() throws {
        let fixture = try makeRepository()
        for pattern in ["v*", "release-*", "docs-*", "v1.*", "*"] {
            let describe = try fixture.git(["describe", "--tags", "--long", "--always", "--dirty", "--match", pattern])
            let tag = try fixture.git(["describe", "--tags", "--abbrev=0", "--match", pattern])
            let distance = try fixture.git(["rev-list", "--count", "\(tag)..HEAD"])
            XCTAssertEqual(
                try printed(fixture, ["--tag-pattern", pattern, "--format", "{describe}|{tag}|{distance}"]),
                "\(describe)|\(tag)|\(distance)", pattern)
        }
    }

    func testVersionAndPrereleaseOfTheNearestMatchingTag() throws {
        let fixture = try makeRepository()
        let cases: [(pattern: String?, version: String, prerelease: String)] = [
            (nil, "2.0.0", "beta.1"), // v2.0.0-beta.1 is nearest
            ("v*", "2.0.0", "beta.1"),
            ("v1.*", "1.0.0", ""),
            ("release-*", "2.1", "rc1"),
            ("docs-*", "7", ""),
        ]
        for item in cases {
            let nearest = try fixture.git(
                ["describe", "--tags", "--abbrev=0"] + (item.pattern.map { ["--match", $0] } ?? []))
            let options = item.pattern.map { ["--tag-pattern", $0] } ?? []
            XCTAssertEqual(
                try printed(fixture, options + ["--format", "{tag}|{version}|{prerelease}"]),
                "\(nearest)|\(item.version)|\(item.prerelease)", item.pattern ?? "no pattern")
        }
    }

    func testDetachedHeadOnATag() throws {
        let fixture = try makeRepository()
        try fixture.run("checkout", "-q", "--detach", "release-2.1-rc1")
        XCTAssertEqual(
            try printed(fixture, ["--format", "{branch} {tag} {version} {distance}"]),
            "HEAD \(try fixture.git(["describe", "--tags", "--abbrev=0"])) 2.1 0")
    }

    func testNoMatchingTagFailsNamingThePatternAndWritesNothing() throws {
        let fixture = try makeRepository()
        let result = try fixture.versionstamp([
            "print", "--repo", fixture.root.path, "--tag-pattern", "ios-*", "--format", "{version}",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdoutText, "")
        XCTAssertTrue(result.stderrText.contains("'ios-*'"), result.stderrText)
        let git = try ProcessRunner.run(
            try Oracle.git.path(), ["-C", fixture.root.path, "describe", "--tags", "--match", "ios-*"],
            environment: fixture.environment, removing: VersionStampGitFixture.removed)
        XCTAssertNotEqual(git.status, 0, "git finds no such tag either")

        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        let stamp = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--tag-pattern", "ios-*",
            "--set", "CFBundleShortVersionString={version}", "--xcconfig", "Version.xcconfig",
        ])
        XCTAssertEqual(stamp.status, 1)
        XCTAssertTrue(stamp.stderrText.contains("'ios-*'"), stamp.stderrText)
        XCTAssertEqual(try Data(contentsOf: plist), before)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: fixture.base.appendingPathComponent("Version.xcconfig").path))
    }

    func testNoTagAtAll() throws {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        try fixture.commit("one")
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path, "--format", "{prerelease}"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("needs a tag"), result.stderrText)
    }

    // MARK: Counts (these equal git's once the reader honours the query)

    func testFirstParentCountMatchesGit() throws {
        let fixture = try makeRepository()
        let expected = try fixture.git(["rev-list", "--count", "--first-parent", "HEAD"])
        XCTAssertNotEqual(expected, try fixture.git(["rev-list", "--count", "HEAD"]), "the history has merges")
        XCTAssertEqual(try printed(fixture, ["--first-parent"]), expected)
        let tag = try fixture.git(["describe", "--tags", "--abbrev=0", "--match", "v1.*"])
        XCTAssertEqual(
            try printed(fixture, ["--first-parent", "--tag-pattern", "v1.*", "--format", "{distance}"]),
            try fixture.git(["rev-list", "--count", "--first-parent", "\(tag)..HEAD"]))
    }

    func testPathCountMatchesGit() throws {
        let fixture = try makeRepository()
        for paths in [["app"], ["lib"], ["docs"], ["app", "docs"], ["lib/fix.txt"], ["."]] {
            let expected = try fixture.git(["rev-list", "--count", "HEAD", "--"] + paths)
            XCTAssertEqual(try printed(fixture, paths.flatMap { ["--path", $0] }), expected, "\(paths)")
            XCTAssertEqual(
                try printed(fixture, ["--first-parent"] + paths.flatMap { ["--path", $0] }),
                try fixture.git(["rev-list", "--count", "--first-parent", "HEAD", "--"] + paths),
                "first parent, \(paths)")
        }
        let tag = try fixture.git(["describe", "--tags", "--abbrev=0", "--match", "v1.*"])
        XCTAssertEqual(
            try printed(fixture, ["--path", "lib", "--tag-pattern", "v1.*", "--format", "{distance}"]),
            try fixture.git(["rev-list", "--count", "\(tag)..HEAD", "--", "lib"]))
    }

    func testPathIsRelativeToRepoOrTheCurrentDirectory() throws {
        let fixture = try makeRepository()
        let app = fixture.root.appendingPathComponent("app")
        let expected = try fixture.git(["rev-list", "--count", "HEAD", "--", "app"])
        // Relative to --repo (as git -C reads it) ...
        XCTAssertEqual(
            try fixture.versionstamp(["print", "--repo", app.path, "--path", "."]).stdoutText, expected + "\n")
        // ... or to the current directory, and absolute.
        XCTAssertEqual(try fixture.versionstamp(["print", "--path", "."], in: app).stdoutText, expected + "\n")
        XCTAssertEqual(
            try fixture.versionstamp(["print", "--path", app.path], in: fixture.root).stdoutText, expected + "\n")
        XCTAssertEqual(
            try fixture.versionstamp(["print", "--path", "../app"], in: fixture.root.appendingPathComponent("lib"))
                .stdoutText,
            expected + "\n")
    }

    /// A path that names nothing in HEAD's tree (a typo, a directory removed since) would count
    /// no commit: an error naming the path as written, with nothing written. git itself counts 0.
    func testPathNotInHeadFailsNamingItAndWritesNothing() throws {
        let fixture = try makeRepository()
        try fixture.run("rm", "-q", "docs/c.txt")
        try fixture.run("commit", "-q", "-m", "docs gone")
        for (paths, named) in [(["lib/nett"], "lib/nett"), (["app", "docs"], "docs"), (["./gone/"], "./gone/")] {
            XCTAssertEqual(
                try fixture.git(["rev-list", "--count", "HEAD", "--"] + paths.filter { $0 != "app" }),
                "docs" == named ? "2" : "0")
            let result = try fixture.versionstamp(
                ["print", "--repo", fixture.root.path] + paths.flatMap { ["--path", $0] })
            XCTAssertEqual(result.status, 1, "\(paths)")
            XCTAssertEqual(result.stdoutText, "")
            XCTAssertTrue(
                result.stderrText.hasPrefix("\(named): error: the path matches nothing in HEAD's tree"),
                result.stderrText)
        }
        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        let stamp = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--path", "lib/nett", "--json", "v.json",
        ])
        XCTAssertEqual(stamp.status, 1)
        XCTAssertTrue(stamp.stderrText.hasPrefix("lib/nett: error: "), stamp.stderrText)
        XCTAssertEqual(try Data(contentsOf: plist), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.base.appendingPathComponent("v.json").path))
    }

    func testPathOutsideTheRepositoryFailsAndWritesNothing() throws {
        let fixture = try makeRepository()
        for outside in ["..", "/", fixture.base.path, "app/../../x"] {
            let result = try fixture.versionstamp(["print", "--repo", fixture.root.path, "--path", outside])
            XCTAssertEqual(result.status, 1, outside)
            XCTAssertTrue(result.stderrText.contains("outside the repository"), result.stderrText)
            XCTAssertEqual(result.stdoutText, "")
        }
        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        let stamp = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--path", "..", "--json", "v.json",
        ])
        XCTAssertEqual(stamp.status, 1)
        XCTAssertEqual(try Data(contentsOf: plist), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.base.appendingPathComponent("v.json").path))
    }

    // MARK: Build numbers

    func testOffsetIsAddedToTheCount() throws {
        let fixture = try makeRepository()
        let count = Int(try fixture.git(["rev-list", "--count", "HEAD"]))!
        XCTAssertEqual(try printed(fixture, ["--offset", "1000"]), String(count + 1000))
        XCTAssertEqual(
            try printed(fixture, ["--offset", "-2", "--format", "{count}.{distance}"]),
            "\(count - 2).\(try fixture.git(["rev-list", "--count", "v2.0.0-beta.1..HEAD"]))")
        let below = try fixture.versionstamp(["print", "--repo", fixture.root.path, "--offset", "-\(count + 1)"])
        XCTAssertEqual(below.status, 1)
        XCTAssertTrue(below.stderrText.contains("non-negative"), below.stderrText)
    }

    func testBadOffsetIsAUsageErrorAndWritesNothing() throws {
        let fixture = try makeRepository()
        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        for bad in ["abc", "1.5", "", "12x"] {
            let result = try fixture.versionstamp(["stamp", plist.path, "--repo", fixture.root.path, "--offset", bad])
            XCTAssertEqual(result.status, 64, bad)
            XCTAssertTrue(result.stderrText.contains("--offset"), result.stderrText)
        }
        XCTAssertEqual(try Data(contentsOf: plist), before)
    }

    func testBuildNumberFromTheEnvironment() throws {
        let fixture = try makeRepository()
        let count = try fixture.git(["rev-list", "--count", "HEAD"])
        XCTAssertEqual(
            try printed(fixture, ["--build-number-env", "CI_BUILD_NUMBER"], extra: ["CI_BUILD_NUMBER": "512"]), "512")
        XCTAssertEqual(
            try printed(
                fixture, ["--build-number-env", "GITHUB_RUN_NUMBER", "--offset", "100"],
                extra: ["GITHUB_RUN_NUMBER": "12"]), "112")
        XCTAssertEqual(
            try printed(fixture, ["--build-number-env", "CI_BUILD_NUMBER"]), count, "unset: the commit count")

        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        for bad in ["", "12a", "-4"] {
            let result = try fixture.versionstamp(
                ["stamp", plist.path, "--repo", fixture.root.path, "--build-number-env", "CI_BUILD_NUMBER"],
                extra: ["CI_BUILD_NUMBER": bad])
            XCTAssertEqual(result.status, 1, bad)
            XCTAssertTrue(result.stderrText.contains("CI_BUILD_NUMBER"), result.stderrText)
        }
        XCTAssertEqual(try Data(contentsOf: plist), before)
        let stamped = try fixture.versionstamp(
            ["stamp", plist.path, "--repo", fixture.root.path, "--build-number-env", "CI_BUILD_NUMBER"],
            extra: ["CI_BUILD_NUMBER": "2048"])
        XCTAssertEqual(stamped.status, 0, stamped.stderrText)
        XCTAssertEqual(try plistValue(plist, "CFBundleVersion"), "2048")
    }

    // MARK: --set

    func testSetStampsBothVersionsInOneRun() throws {
        let fixture = try makeRepository()
        try fixture.run("tag", "v2.3.1")
        let plist = try writeInfoPlist(fixture)
        let result = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--offset", "500",
            "--set", "CFBundleShortVersionString={version}", "--set", "CFBundleVersion={count}",
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(try plistValue(plist, "CFBundleShortVersionString"), "2.3.1")
        XCTAssertEqual(
            try plistValue(plist, "CFBundleVersion"),
            String(Int(try fixture.git(["rev-list", "--count", "HEAD"]))! + 500))
    }

    func testSetChecksTheAppStoreRuleOnEachKey() throws {
        let fixture = try makeRepository()
        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        let result = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path,
            "--set", "CFBundleShortVersionString={version}-{prerelease}", "--set", "CFBundleVersion={count}",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderrText.contains("Info.plist:5: error: CFBundleShortVersionString \"2.0.0-beta.1\""),
            result.stderrText)
        XCTAssertEqual(try Data(contentsOf: plist), before)
    }

    func testSetWithoutEqualsIsAUsageError() throws {
        let fixture = try makeRepository()
        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        let result = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--set", "CFBundleVersion",
        ])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderrText.contains("KEYPATH=FORMAT"), result.stderrText)
        let combined = try fixture.versionstamp(["stamp", plist.path, "--set", "A=1", "--placeholder", "r0000"])
        XCTAssertEqual(combined.status, 64)
        XCTAssertEqual(try Data(contentsOf: plist), before)
    }

    func testUnknownTokenInSetFailsAndWritesNothing() throws {
        let fixture = try makeRepository()
        let plist = try writeInfoPlist(fixture)
        let before = try Data(contentsOf: plist)
        let result = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--set", "CFBundleVersion={build}",
            "--xcconfig", "Version.xcconfig",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("unknown token '{build}'"), result.stderrText)
        XCTAssertEqual(result.stderrText.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, "reported once")
        XCTAssertEqual(try Data(contentsOf: plist), before)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: fixture.base.appendingPathComponent("Version.xcconfig").path))
    }

    // MARK: Xcode build settings

    func testABuildSettingReferenceIsKeptUnlessForced() throws {
        let fixture = try makeRepository()
        let plist = try writeInfoPlist(fixture, short: "$(MARKETING_VERSION)", version: "$(CURRENT_PROJECT_VERSION)")
        let before = try Data(contentsOf: plist)
        let refused = try fixture.versionstamp(["stamp", plist.path, "--repo", fixture.root.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderrText.hasPrefix("\(plist.path):7: error: "), refused.stderrText)
        XCTAssertTrue(refused.stderrText.contains("CURRENT_PROJECT_VERSION"), refused.stderrText)
        XCTAssertTrue(refused.stderrText.contains("--xcconfig"), refused.stderrText)
        XCTAssertEqual(try Data(contentsOf: plist), before)

        let check = try fixture.versionstamp([
            "stamp", plist.path, "--repo", fixture.root.path, "--set", "CFBundleShortVersionString={version}",
            "--check",
        ])
        XCTAssertEqual(check.status, 2, "an error under --check")
        XCTAssertTrue(check.stderrText.contains("MARKETING_VERSION"), check.stderrText)

        let forced = try fixture.versionstamp(["stamp", plist.path, "--repo", fixture.root.path, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderrText)
        XCTAssertEqual(try plistValue(plist, "CFBundleVersion"), try fixture.git(["rev-list", "--count", "HEAD"]))
        XCTAssertEqual(
            try plistValue(plist, "CFBundleShortVersionString"), "$(MARKETING_VERSION)", "only the key asked for")
    }

    func testXcconfigWritesTheSettingsXcodeReads() throws {
        let fixture = try makeRepository()
        try fixture.run("tag", "v3.1")
        let result = try fixture.versionstamp([
            "stamp", "--repo", fixture.root.path, "--xcconfig", "Version.xcconfig", "--offset", "100",
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let text = try String(contentsOf: fixture.base.appendingPathComponent("Version.xcconfig"), encoding: .utf8)
        let count = Int(try fixture.git(["rev-list", "--count", "HEAD"]))!
        XCTAssertTrue(text.contains("\nCURRENT_PROJECT_VERSION = \(count + 100)\n"), text)
        XCTAssertTrue(text.contains("\nMARKETING_VERSION = 3.1\n"), text)
        XCTAssertTrue(text.contains("\nSHIPYARD_BUILD_TAG = v3.1\n"), text)

        // With a tag pattern matching no tag, MARKETING_VERSION is left to the project.
        let none = try fixture.versionstamp([
            "stamp", "--repo", fixture.root.path, "--xcconfig", "None.xcconfig", "--tag-pattern", "ios-*",
        ])
        XCTAssertEqual(none.status, 0, none.stderrText)
        let noTag = try String(contentsOf: fixture.base.appendingPathComponent("None.xcconfig"), encoding: .utf8)
        XCTAssertTrue(noTag.contains("\nCURRENT_PROJECT_VERSION = \(count)\n"), noTag)
        XCTAssertFalse(noTag.contains("\nMARKETING_VERSION ="), noTag)
    }

    // MARK: A longer generated history

    /// A few hundred commits made with git fast-import (seeded): merges of branches that touch
    /// the directories differently, tags of two families. Counts and tags equal git's.
    func testGeneratedHistoryMatchesGit() throws {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        var generator = SeededGenerator(seed: 13)
        let stream = Self.fastImportStream(commits: 300, using: &generator)
        let imported = try ProcessRunner.run(
            try Oracle.git.path(), ["-C", fixture.root.path, "fast-import", "--quiet"],
            environment: fixture.environment, removing: VersionStampGitFixture.removed,
            input: Data(stream.utf8))
        XCTAssertEqual(imported.status, 0, imported.stderrText)
        try fixture.run("reset", "-q", "--hard")
        for pattern in ["v*", "build-*"] {
            let tag = try fixture.git(["describe", "--tags", "--abbrev=0", "--match", pattern])
            XCTAssertEqual(
                try printed(fixture, ["--tag-pattern", pattern, "--format", "{tag} {distance}"]),
                "\(tag) \(try fixture.git(["rev-list", "--count", "\(tag)..HEAD"]))", pattern)
        }
        XCTAssertEqual(try printed(fixture, []), try fixture.git(["rev-list", "--count", "HEAD"]))
        XCTAssertEqual(
            try printed(fixture, ["--first-parent"]),
            try fixture.git(["rev-list", "--count", "--first-parent", "HEAD"]))
        for directory in ["d0", "d1", "d2"] {
            XCTAssertEqual(
                try printed(fixture, ["--path", directory]),
                try fixture.git(["rev-list", "--count", "HEAD", "--", directory]),
                directory)
        }
    }

    /// A fast-import stream: `commits` commits on main, every ~7th a merge of a short side
    /// branch; each commit changes a file in one of three directories; tags every ~20 commits.
    private static func fastImportStream(commits: Int, using generator: inout SeededGenerator) -> String {
        var stream = ""
        var mark = 0
        var mainTip: Int?
        var time = 1_700_000_000
        func commit(_ branch: String, parents: [Int], directory: String) -> Int {
            mark += 1
            time += 60
            let file = "\(directory)/f\(mark % 5).txt"
            stream += "commit refs/heads/\(branch)\nmark :\(mark)\n"
            stream += "committer Gen <gen@example.com> \(time) +0000\ndata 3\nc\(mark % 10)\n"
            if let first = parents.first { stream += "from :\(first)\n" }
            for other in parents.dropFirst() { stream += "merge :\(other)\n" }
            let content = "\(mark)\n"
            stream += "M 100644 inline \(file)\ndata \(content.utf8.count)\n\(content)\n"
            return mark
        }
        var made = 0
        var tags = 0
        while made < commits {
            let directory = "d\(Int.random(in: 0...2, using: &generator))"
            if let tip = mainTip, made % 7 == 6 {
                var side = tip
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    side = commit("side", parents: [side], directory: "d\(Int.random(in: 0...2, using: &generator))")
                    made += 1
                }
                let mainAhead = commit("main", parents: [tip], directory: directory)
                mainTip = commit("main", parents: [mainAhead, side], directory: directory)
                made += 2
            } else {
                mainTip = commit("main", parents: mainTip.map { [$0] } ?? [], directory: directory)
                made += 1
            }
            if made / 20 > tags, let tip = mainTip {
                tags += 1
                let name = tags % 2 == 0 ? "v1.\(tags).0" : "build-\(tags)"
                stream += "reset refs/tags/\(name)\nfrom :\(tip)\n\n"
            }
        }
        return stream
    }
}
