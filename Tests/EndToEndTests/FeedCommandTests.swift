import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen keys generate`, `feed init`, `publish`, `feed verify` through the built executable:
/// the key's forms, the file's mode, `WHAT: error: WHY` with exit 1 and nothing written, and
/// `kill -9` during a publish leaving a feed that verifies.
final class FeedCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("dbgen-feed", removedAfter: self)
    }

    @discardableResult
    private func dbgen(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws
        -> ProcessResult
    {
        try BuiltProducts.run("dbgen", arguments, in: directory.url, environment: environment, input: input)
    }

    private func release(_ name: String, version: Int, rows: Int = 500, every: Int = 0) throws {
        let value = every > 0 ? "CASE WHEN value % \(every) = 0 THEN 'new' ELSE 'old' END" : "'old'"
        try directory.write(
            "\(name).txt",
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO t SELECT value, \(value) || value || hex(value * 7919) FROM generate_series(1, \(rows));
            PRAGMA user_version = \(version);

            """)
        let result = try dbgen(["build", "\(name).txt", "-o", "\(name).sqlite", "--force"])
        XCTAssertEqual(result.status, 0, result.stderrText)
    }

    /// A key `k` and a feed `feed` signed by it.
    private func newFeed(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "k"]).status, 0, file: file, line: line)
        XCTAssertEqual(try dbgen(["feed", "init", "feed", "--key", "k"]).status, 0, file: file, line: line)
    }

    private func tree(_ path: String) -> [String: Data] { DirectoryTree.files(under: directory.url(path).path) }

    func testKeysGenerateWritesAPrivateKeyPrintsThePublicKeyAndRefusesToOverwrite() throws {
        let result = try dbgen(["keys", "generate", "--out", "release.key"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let line = result.stdoutText
        XCTAssertTrue(line.range(of: "^[0-9a-f]{64}\n$", options: .regularExpression) != nil, line)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.url("release.key").path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let key = try Data(contentsOf: directory.url("release.key"))
        XCTAssertFalse(result.stdoutText.contains(String(decoding: key, as: UTF8.self).prefix(64)))
        let again = try dbgen(["keys", "generate", "--out", "release.key"])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderrText, "release.key: error: the file exists (pass --force to replace it)\n")
        XCTAssertEqual(try Data(contentsOf: directory.url("release.key")), key)
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "release.key", "--force"]).status, 0)
        XCTAssertNotEqual(try Data(contentsOf: directory.url("release.key")), key)
    }

    func testInitPublishAndVerifyWithEachFormOfKey() throws {
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "k"]).status, 0)
        let keyText = try String(contentsOf: directory.url("k"), encoding: .utf8)
        let initialized = try dbgen(["feed", "init", "feed", "--key", "-"], input: Data(keyText.utf8))
        XCTAssertEqual(initialized.status, 0, initialized.stderrText)
        XCTAssertEqual(try dbgen(["feed", "verify", "feed", "--root", "feed/root.json"]).status, 0)
        try release("v1", version: 1)
        try release("v2", version: 2, every: 50)
        let first = try dbgen(["publish", "feed", "v1.sqlite", "--key", "k"])
        XCTAssertEqual(first.status, 0, first.stderrText)
        let second = try dbgen(
            ["publish", "feed", "v2.sqlite", "--key", "env:FEED_KEY", "--rollout", "0.5", "--data-format", "1-3"],
            environment: ["FEED_KEY": keyText])
        XCTAssertEqual(second.status, 0, second.stderrText)
        XCTAssertTrue(second.stdoutText.contains("patch from user_version 1: "), second.stdoutText)
        XCTAssertTrue(
            first.stdoutText.contains("\n  offered to: every channel, every device (rollout 1), every data format\n"),
            first.stdoutText)
        XCTAssertTrue(
            second.stdoutText.contains("\n  offered to: every channel, rollout 0.5, data format 1-3\n"),
            second.stdoutText)
        let same = try dbgen(["publish", "feed", "v2.sqlite", "--key", "k", "--rollout", "0.5", "--data-format", "1-3"])
        XCTAssertEqual(same.status, 0, same.stderrText)
        XCTAssertTrue(
            same.stderrText.contains("already in the feed (offered to: every channel, rollout 0.5, data format 1-3)"),
            same.stderrText)
        let verified = try dbgen(["feed", "verify", "feed", "--root", "feed/root.json"])
        XCTAssertEqual(verified.status, 0, verified.stderrText)
        XCTAssertTrue(
            verified.stdoutText.hasPrefix(
                "feed: verified: root 1, timestamp 3, snapshot 3, targets 3; 2 releases, newest user_version 2, 1 patch"
            ),
            verified.stdoutText)
        XCTAssertFalse((second.stdoutText + second.stderrText + verified.stdoutText).contains(keyText.prefix(64)))
    }

    func testErrorsNameWhatFailedExitOneAndLeaveTheFeedAsItWas() throws {
        try newFeed()
        let before = tree("feed")
        try release("v1", version: 1)
        let missing = try dbgen(["publish", "feed", "v1.sqlite", "--key", "env:NO_SUCH_KEY"], environment: [:])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderrText, "env:NO_SUCH_KEY: error: the environment variable NO_SUCH_KEY is not set\n")
        try directory.write("bad.key", "not a key\n")
        let malformed = try dbgen(["publish", "feed", "v1.sqlite", "--key", "bad.key"])
        XCTAssertEqual(malformed.status, 1)
        XCTAssertTrue(malformed.stderrText.hasPrefix("bad.key: error: not an Ed25519 key file"), malformed.stderrText)
        XCTAssertEqual(try dbgen(["keys", "generate", "--out", "other"]).status, 0)
        let stranger = try dbgen(["publish", "feed", "v1.sqlite", "--key", "other"])
        XCTAssertEqual(stranger.status, 1)
        XCTAssertTrue(stranger.stderrText.contains("other: error: key "), stranger.stderrText)
        XCTAssertTrue(
            stranger.stderrText.contains("is not a targets key of root.json (version 1)"), stranger.stderrText)
        XCTAssertEqual(tree("feed"), before)
        let notEmpty = try dbgen(["feed", "init", "feed", "--key", "k"])
        XCTAssertEqual(notEmpty.status, 1)
        XCTAssertEqual(notEmpty.stderrText, "feed: error: not empty: a feed is created in a new or empty directory\n")
        XCTAssertEqual(tree("feed"), before)
        // A document changed after signing: verify names it and the check.
        var timestamp = try XCTUnwrap(before["timestamp.json"])
        timestamp[timestamp.count - 3] = UInt8(ascii: "9")
        try timestamp.write(to: directory.url("feed/timestamp.json"))
        let tampered = try dbgen(["feed", "verify", "feed", "--root", "feed/root.json"])
        XCTAssertEqual(tampered.status, 1)
        XCTAssertTrue(tampered.stderrText.hasPrefix("timestamp.json: error: "), tampered.stderrText)
    }

    func testPublishCompressesWithBzip2UnlessToldZlibAndRefusesAnotherName() throws {
        try newFeed()
        try release("v1", version: 1)
        try release("v2", version: 2, every: 9)
        let before = tree("feed")
        let unknown = try dbgen(["publish", "feed", "v1.sqlite", "--key", "k", "--compression", "xz"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderrText, "--compression: error: \"xz\" is not zlib or bzip2\n")
        XCTAssertEqual(tree("feed"), before)
        let zlib = try dbgen(["publish", "feed", "v1.sqlite", "--key", "k", "--compression", "zlib"])
        XCTAssertEqual(zlib.status, 0, zlib.stderrText)
        let bzip2 = try dbgen(["publish", "feed", "v2.sqlite", "--key", "k"])
        XCTAssertEqual(bzip2.status, 0, bzip2.stderrText)
        let releases = try FileManager.default.contentsOfDirectory(atPath: directory.url("feed/targets/releases").path)
        XCTAssertEqual(releases.count, 2, "\(releases)")
        XCTAssertEqual(releases.filter { $0.hasSuffix(".sqlite.zlib") }.count, 1, "\(releases)")
        XCTAssertEqual(releases.filter { $0.hasSuffix(".sqlite.bz2") }.count, 1, "\(releases)")
        let patches = try FileManager.default.contentsOfDirectory(atPath: directory.url("feed/targets/patches").path)
        XCTAssertEqual(patches.count, 1)
        XCTAssertTrue(patches[0].hasSuffix(".sqlpack.bz2"), "\(patches)")
        let verified = try dbgen(["feed", "verify", "feed", "--root", "feed/root.json"])
        XCTAssertEqual(verified.status, 0, verified.stderrText)
        XCTAssertTrue(verified.stdoutText.contains("2 releases, newest user_version 2, 1 patch"), verified.stdoutText)
        let help = try dbgen(["publish", "--help"])
        XCTAssertTrue(help.stdoutText.contains("--compression <bzip2|zlib>"), help.stdoutText)
    }

    func testNoPackingPublishesPlainSQLThatBunzip2AndSqlite3AloneApply() throws {
        try newFeed()
        try release("v1", version: 1)
        try release("v2", version: 2, every: 9)
        XCTAssertEqual(try dbgen(["publish", "feed", "v1.sqlite", "--key", "k"]).status, 0)
        let plain = try dbgen(["publish", "feed", "v2.sqlite", "--key", "k", "--no-packing"])
        XCTAssertEqual(plain.status, 0, plain.stderrText)
        let patches = try FileManager.default.contentsOfDirectory(atPath: directory.url("feed/targets/patches").path)
        XCTAssertEqual(patches.count, 1)
        XCTAssertTrue(patches[0].hasSuffix(".sql.bz2"), "\(patches)")
        let sql = try PythonTargetDecoder.decode(
            directory.url("feed/targets/patches/" + patches[0]).path, compression: "bzip2", packing: nil)
        try FileManager.default.copyItem(at: directory.url("v1.sqlite"), to: directory.url("copy.sqlite"))
        _ = try Oracle.sqlite3Script(directory.url("copy.sqlite").path, String(decoding: sql, as: UTF8.self))
        XCTAssertEqual(
            try DatabaseContent.dump(directory.url("copy.sqlite").path),
            try DatabaseContent.dump(directory.url("v2.sqlite").path))
        let verified = try dbgen(["feed", "verify", "feed", "--root", "feed/root.json"])
        XCTAssertEqual(verified.status, 0, verified.stderrText)
        XCTAssertTrue(try dbgen(["publish", "--help"]).stdoutText.contains("--no-packing"))
    }

    func testVerifyReadsAFeedServedByNginxAndNamesATamperedTarget() throws {
        try newFeed()
        try release("v1", version: 1)
        try release("v2", version: 2, every: 9)
        for name in ["v1", "v2"] {
            XCTAssertEqual(try dbgen(["publish", "feed", "\(name).sqlite", "--key", "k"]).status, 0)
        }
        try FileManager.default.copyItem(at: directory.url("feed/root.json"), to: directory.url("bundled-root.json"))
        let nginx = try NginxServer(serving: directory.url("feed"))
        defer { nginx.stop() }
        let url = nginx.url("").absoluteString
        let verified = try dbgen(["feed", "verify", url, "--root", "bundled-root.json"])
        XCTAssertEqual(verified.status, 0, verified.stderrText)
        XCTAssertTrue(verified.stdoutText.contains("2 releases, newest user_version 2, 1 patch"), verified.stdoutText)
        let patches = try FileManager.default.contentsOfDirectory(atPath: directory.url("feed/targets/patches").path)
        let blob = directory.url("feed/targets/patches/" + patches[0])
        var bytes = try Data(contentsOf: blob)
        bytes[0] ^= 0xff
        try bytes.write(to: blob)
        let tampered = try dbgen(["feed", "verify", url, "--root", "bundled-root.json"])
        XCTAssertEqual(tampered.status, 1)
        let path = "patches/" + patches[0].split(separator: ".", maxSplits: 1)[1]
        XCTAssertTrue(tampered.stderrText.hasPrefix("\(path): error: sha256: "), tampered.stderrText)
    }

    func testRotateTimestampAndPruneThroughDbgen() throws {
        for name in ["old", "new", "stranger"] {
            XCTAssertEqual(try dbgen(["keys", "generate", "--out", "\(name).key"]).status, 0)
        }
        XCTAssertEqual(try dbgen(["feed", "init", "feed", "--key", "old.key"]).status, 0)
        try FileManager.default.copyItem(at: directory.url("feed/root.json"), to: directory.url("bundled-root.json"))
        for version in 1...3 {
            try release("v\(version)", version: version, every: 10 * version)
            XCTAssertEqual(try dbgen(["publish", "feed", "v\(version).sqlite", "--key", "old.key"]).status, 0)
        }
        let before = tree("feed")
        let refused = try dbgen(["feed", "rotate", "feed", "--key", "stranger.key", "--new-key", "new.key"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderrText.hasPrefix("stranger.key: error: key "), refused.stderrText)
        let twice = try dbgen(["feed", "rotate", "feed", "--key", "-", "--new-key", "-"], input: Data())
        XCTAssertEqual(twice.stderrText, "-: error: only one key can be read from standard input\n")
        XCTAssertEqual(tree("feed"), before)
        let rotated = try dbgen(["feed", "rotate", "feed", "--key", "old.key", "--new-key", "new.key"])
        XCTAssertEqual(rotated.status, 0, rotated.stderrText)
        XCTAssertEqual(try dbgen(["feed", "timestamp", "feed", "--key", "new.key"]).status, 0)
        let pruned = try dbgen(["feed", "prune", "feed", "--key", "new.key", "--keep", "1"])
        XCTAssertEqual(pruned.stdoutText, "kept 1 release; dropped 5 targets, deleted 5 files\n", pruned.stderrText)
        let verified = try dbgen(["feed", "verify", "feed", "--root", "bundled-root.json"])
        XCTAssertTrue(
            verified.stdoutText.hasPrefix("feed: verified: root 2, timestamp 7, snapshot 6, targets 6; 1 release"),
            verified.stdoutText + verified.stderrText)
    }

    func testARecoveryKeyReplacesALostKeyTwiceAndADeviceBundlingTheFirstRootFollows() throws {
        for name in ["main", "new", "newer"] {
            XCTAssertEqual(try dbgen(["keys", "generate", "--out", "\(name).key"]).status, 0)
        }
        let generated = try dbgen(["keys", "generate", "--out", "recovery.key"])
        let recovery = generated.stdoutText.trimmingCharacters(in: .newlines)
        for malformed in ["recovery.key", String(recovery.dropLast())] {
            let refused = try dbgen(["feed", "init", "feed", "--key", "main.key", "--recovery-key", malformed])
            XCTAssertEqual(refused.status, 1)
            XCTAssertTrue(
                refused.stderrText.hasPrefix("--recovery-key: error: \"\(malformed)\" is not an Ed25519 public key"),
                refused.stderrText)
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("feed").path))
        }
        let initialized = try dbgen(["feed", "init", "feed", "--key", "main.key", "--recovery-key", recovery])
        XCTAssertEqual(initialized.status, 0, initialized.stderrText)
        try FileManager.default.copyItem(at: directory.url("feed/root.json"), to: directory.url("bundled-root.json"))
        for version in 1...3 { try release("v\(version)", version: version, every: 10 * version) }
        XCTAssertEqual(try dbgen(["publish", "feed", "v1.sqlite", "--key", "main.key"]).status, 0)
        let byRecovery = try dbgen(["publish", "feed", "v2.sqlite", "--key", "recovery.key"])
        XCTAssertEqual(byRecovery.status, 1)
        XCTAssertTrue(
            byRecovery.stderrText.contains("is this feed's recovery key: it signs only root"), byRecovery.stderrText)
        let before = tree("feed")
        let badRotation = try dbgen(
            ["feed", "rotate", "feed", "--key", "main.key", "--new-key", "new.key", "--recovery-key", "zz"])
        XCTAssertTrue(badRotation.stderrText.hasPrefix("--recovery-key: error: \"zz\" is not"), badRotation.stderrText)
        XCTAssertEqual(tree("feed"), before)
        // The main key is lost, then its successor: the recovery key replaces each.
        for (lost, next, version) in [("main", "new", 2), ("new", "newer", 3)] {
            try FileManager.default.removeItem(at: directory.url("\(lost).key"))
            let rotated = try dbgen(["feed", "rotate", "feed", "--key", "recovery.key", "--new-key", "\(next).key"])
            XCTAssertEqual(rotated.status, 0, rotated.stderrText)
            let published = try dbgen(["publish", "feed", "v\(version).sqlite", "--key", "\(next).key"])
            XCTAssertEqual(published.status, 0, published.stderrText)
            let verified = try dbgen(["feed", "verify", "feed", "--root", "bundled-root.json"])
            XCTAssertTrue(
                verified.stdoutText.hasPrefix("feed: verified: root \(version), ")
                    && verified.stdoutText.contains("\(version) releases, newest user_version \(version)"),
                verified.stdoutText + verified.stderrText)
        }
        for command in ["init", "rotate"] {
            let help = try dbgen(["feed", command, "--help"]).stdoutText
            XCTAssertTrue(help.contains("--recovery-key <public-key>"), help)
            XCTAssertTrue(help.contains("--key recovery.key") || help.contains("Recovery keys:"), help)
        }
    }

    func testHelpExplainsEachCommand() throws {
        for command in [
            ["keys", "generate"], ["feed", "init"], ["feed", "verify"], ["feed", "rotate"],
            ["feed", "timestamp"], ["feed", "prune"], ["publish"],
        ] {
            let help = try dbgen(command + ["--help"])
            XCTAssertEqual(help.status, 0, command.joined(separator: " "))
            XCTAssertTrue(help.stdoutText.contains("Example"), command.joined(separator: " "))
        }
        let publish = try dbgen(["publish", "--help"]).stdoutText
        for flag in [
            "--patches-from", "--channel", "--rollout", "--critical", "--timestamp-expires", "--data-format", "--key",
        ] {
            XCTAssertTrue(publish.contains(flag), flag)
        }
    }

    /// `kill -9` at several moments of a publish (deflating, diffing, proving patches, writing
    /// metadata): the feed verifies after each, and a publish then completes.
    func testKillDuringPublishLeavesAFeedThatVerifies() throws {
        try newFeed()
        try release("v1", version: 1, rows: 60_000)
        XCTAssertEqual(try dbgen(["publish", "feed", "v1.sqlite", "--key", "k"]).status, 0)
        try release("v2", version: 2, rows: 60_000, every: 30)
        let started = Date()
        let full = try dbgen(["publish", "feed", "v2.sqlite", "--key", "k"], environment: [:])
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(full.status, 0, full.stderrText)
        // Back to the feed before v2, then kill publishes of v2 at spread moments of its run.
        XCTAssertEqual(try dbgen(["feed", "init", "feed2", "--key", "k"]).status, 0)
        XCTAssertEqual(try dbgen(["publish", "feed2", "v1.sqlite", "--key", "k"]).status, 0)
        for step in 1...6 {
            let process = try ProcessRunner.start(
                BuiltProducts.path("dbgen"), ["publish", "feed2", "v2.sqlite", "--key", "k"], in: directory.url)
            usleep(useconds_t(duration * Double(step) / 7 * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let verified = try dbgen(["feed", "verify", "feed2", "--root", "feed2/root.json"])
            XCTAssertEqual(verified.status, 0, "after a kill at step \(step): \(verified.stderrText)")
            if verified.stdoutText.contains("newest user_version 2") { break }
        }
        let finished = try dbgen(["publish", "feed2", "v2.sqlite", "--key", "k"])
        XCTAssertEqual(finished.status, 0, finished.stderrText)
        let verified = try dbgen(["feed", "verify", "feed2", "--root", "feed2/root.json"])
        XCTAssertTrue(verified.stdoutText.contains("2 releases, newest user_version 2, 1 patch"), verified.stdoutText)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.url("feed2").path).filter {
                $0.hasPrefix(".")
            },
            [], "what killed publishes left")
    }
}
