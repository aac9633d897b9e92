import Foundation
import ShipyardTestSupport
import XCTest

/// `versionstamp print` through the built executable, compared with the git CLI.
final class VersionStampPrintTests: XCTestCase {
    /// A repository with a merge, an annotated and a lightweight tag, and a branch with a slash.
    private func makeRepository() throws -> VersionStampGitFixture {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        try fixture.commit("one")
        try fixture.run("tag", "-a", "v1.0", "-m", "one")
        try fixture.run("checkout", "-q", "-b", "topic/side")
        try fixture.commit("side")
        try fixture.run("checkout", "-q", "main")
        try fixture.commit("two")
        try fixture.run("merge", "-q", "--no-ff", "-m", "merge", "topic/side")
        try fixture.run("tag", "v1.1")
        try fixture.commit("three")
        try fixture.run("checkout", "-q", "-b", "release/2.0")
        return fixture
    }

    func testDefaultFormatIsTheCommitCount() throws {
        let fixture = try makeRepository()
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, try fixture.run("rev-list", "--count", "HEAD") + "\n")
        XCTAssertEqual(result.stderrText, "")
    }

    func testEveryTokenMatchesGit() throws {
        let fixture = try makeRepository()
        try Data("changed\n".utf8).write(to: fixture.root.appendingPathComponent("one.txt"))
        let format = "{count}|{sha}|{short}|{describe}|{dirty}|{branch}|{tag}|{distance}|{date}|{timestamp}"
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path, "--format", format])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let describedLong = try fixture.run("describe", "--tags", "--long") // TAG-DISTANCE-gHEX
        var parts = describedLong.components(separatedBy: "-")
        parts.removeLast()
        let distance = parts.removeLast()
        let expected = [
            try fixture.run("rev-list", "--count", "HEAD"),
            try fixture.run("rev-parse", "HEAD"),
            try fixture.run("rev-parse", "--short", "HEAD"),
            try fixture.run("describe", "--tags", "--long", "--always", "--dirty"),
            try fixture.run("describe", "--always", "--dirty=@D@").hasSuffix("@D@") ? "M" : "",
            try fixture.run("rev-parse", "--abbrev-ref", "HEAD"),
            parts.joined(separator: "-"),
            distance,
            try fixture.run("log", "-1", "--date=format-local:%Y%m%d", "--format=%cd"),
            try fixture.run("log", "-1", "--format=%ct"),
        ].joined(separator: "|")
        XCTAssertEqual(result.stdoutText, expected + "\n")
    }

    func testDirtyMarkerAndLiteralBraces() throws {
        let fixture = try makeRepository()
        try Data("changed\n".utf8).write(to: fixture.root.appendingPathComponent("two.txt"))
        let result = try fixture.versionstamp([
            "print", "--repo", fixture.root.path,
            "--format", "{{r}}{count}{dirty}", "--dirty-marker", "-modified",
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "{r}" + (try fixture.run("rev-list", "--count", "HEAD")) + "-modified\n")
    }

    func testDiscoveryFromWorkingDirectorySubdirectory() throws {
        let fixture = try makeRepository()
        let sub = fixture.root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let result = try fixture.versionstamp(["print", "--format", "{branch}@{short}"], in: sub)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let expected =
            try fixture.run("rev-parse", "--abbrev-ref", "HEAD") + "@"
            + (try fixture.run("rev-parse", "--short", "HEAD"))
        XCTAssertEqual(result.stdoutText, expected + "\n")
    }

    func testOverrideWithoutRepository() throws {
        let fixture = try VersionStampGitFixture(self)
        let result = try fixture.versionstamp(
            ["print", "--repo", fixture.root.path, "--format", "{count}{dirty}"],
            extra: ["VERSIONSTAMP_VERSION": "3.1.4"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "3.1.4\n")
    }

    func testNotARepositoryFailsWithHint() throws {
        let fixture = try VersionStampGitFixture(self)
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdoutText, "")
        XCTAssertTrue(
            result.stderrText.hasPrefix("\(fixture.root.path): error: not a git repository"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("VERSIONSTAMP_VERSION"), result.stderrText)
    }

    /// Refused whatever libgit2 can read (1.7 and later read shallow clones): the history is incomplete.
    func testShallowCloneFails() throws {
        let fixture = try makeRepository()
        let clone = fixture.base.appendingPathComponent("shallow")
        try fixture.run("clone", "-q", "--depth", "1", "file://\(fixture.root.path)", clone.path)
        let result = try fixture.versionstamp(["print", "--repo", clone.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("git fetch --unshallow"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("fetch-depth: 0"), result.stderrText)
    }

    /// CI's default `--depth 1` checkout: the tokens of HEAD alone are printed as git gives them.
    func testShallowCloneAnswersHeadTokens() throws {
        let fixture = try makeRepository()
        let clone = fixture.base.appendingPathComponent("shallow")
        try fixture.run("clone", "-q", "--depth", "1", "file://\(fixture.root.path)", clone.path)
        let result = try fixture.versionstamp([
            "print", "--repo", clone.path, "--format", "{sha} {short} {branch} {timestamp}{dirty}",
        ])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let expected = [
            try fixture.run("rev-parse", "HEAD", in: clone), try fixture.run("rev-parse", "--short", "HEAD", in: clone),
            try fixture.run("rev-parse", "--abbrev-ref", "HEAD", in: clone),
            try fixture.run("log", "-1", "--format=%ct", in: clone),
        ]
        XCTAssertEqual(result.stdoutText, expected.joined(separator: " ") + "\n")
    }

    /// A hook-like run inside another repository with `GIT_DIR` naming a third one: its count,
    /// not the enclosing repository's.
    func testGitDirNamesTheRepository() throws {
        let fixture = try makeRepository()
        let src = fixture.base.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        try fixture.run("init", "-q", "-b", "main", in: src)
        try fixture.run("commit", "-q", "--allow-empty", "-m", "only", in: src)
        let gitDir = src.appendingPathComponent(".git").path
        let result = try fixture.versionstamp(
            ["print", "--format", "{count} {sha}"], in: fixture.root, extra: ["GIT_DIR": gitDir])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "1 \(try fixture.run("rev-parse", "HEAD", in: src))\n")
        XCTAssertNotEqual(
            try fixture.run("rev-list", "--count", "HEAD"), "1", "the enclosing repository has more commits")
    }

    func testUnbornHeadFails() throws {
        let fixture = try VersionStampGitFixture(self)
        try fixture.run("init", "-q", "-b", "main")
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("no commits"), result.stderrText)
    }

    /// `extensions.partialClone`, which no libgit2 from 1.5 to 1.9 reads (`worktreeConfig`,
    /// refused by 1.5 to 1.7, is read by 1.8 and later: VersionStampKit's tests cover both).
    func testUnsupportedExtensionFails() throws {
        let fixture = try makeRepository()
        try fixture.run("config", "core.repositoryformatversion", "1")
        try fixture.run("config", "extensions.partialClone", "origin")
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.lowercased().contains("extensions.partialclone"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("unsupported repository extension"), result.stderrText)
    }

    func testUnknownTokenFails() throws {
        let fixture = try makeRepository()
        let result = try fixture.versionstamp(["print", "--repo", fixture.root.path, "--format", "{count}{svn}"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("'{svn}'"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("{describe}"), result.stderrText)
        XCTAssertEqual(result.stdoutText, "")
    }

    func testHelpListsTheTokens() throws {
        let result = try BuiltProducts.run("versionstamp", ["print", "--help"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        for token in ["count", "sha", "short", "dirty", "describe", "tag", "distance", "branch", "date", "timestamp"] {
            XCTAssertTrue(result.stdoutText.contains("{\(token)}"), "missing {\(token)} in \(result.stdoutText)")
        }
        XCTAssertTrue(result.stdoutText.contains("VERSIONSTAMP_VERSION"))
    }

    /// The executable makes libgit2 skip its CA bundle (SkippedCertificateLoading.swift): the
    /// trace shows libgit2 look for the bundle at initialisation, which it would then parse, and
    /// never open it; the answer is still git's.
    func testLibgit2LoadsNoCertificates() throws {
        let fixture = try makeRepository()
        let trace = fixture.base.appendingPathComponent("start.trace")
        let result = try Oracle.strace.run(
            [
                "-f", "-qq", "-o", trace.path, "-e", "trace=open,openat,stat,lstat,newfstatat,statx",
                BuiltProducts.path("versionstamp"), "print", "--repo", fixture.root.path, "--format", "{count}{dirty}",
            ],
            in: fixture.base, environment: fixture.environment)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, try fixture.run("rev-list", "--count", "HEAD") + "\n")
        // Each line: PID SYSCALL(ARGUMENTS) = RESULT; the calls naming a certificate file or directory.
        let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("/etc/ssl/") || $0.contains(".crt\"") || $0.contains(".pem\"") }
            .map { String($0.prefix { $0 != "(" }.split(separator: " ").last ?? "") }
        XCTAssertTrue(
            calls.contains { $0.contains("stat") },
            "libgit2 did not look for a CA bundle, so it is not Debian's mbedTLS build (scripts/setup.sh installs it)")
        XCTAssertFalse(calls.contains { $0.hasPrefix("open") }, "versionstamp opened a certificate file: \(calls)")
    }
}
