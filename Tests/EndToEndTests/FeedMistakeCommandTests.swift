import Foundation
import ShipyardTestSupport
import XCTest

/// The usual mistakes with the feed commands, each told in words with exit 1 and nothing
/// written: a wrong FEED path or swapped arguments, a URL that is not http(s), a user_version
/// not above the newest release, another feed's root (naming the keys of both as `dbgen keys
/// generate` printed them).
final class FeedMistakeCommandTests: XCTestCase {
    func testAWrongFeedPathOrSwappedArgumentsSayNoFeedThereForEveryCommand() throws {
        let work = try FeedWorkspace(self)
        try work.key("k")
        try work.key("k2")
        let recovery = try work.key("recovery.key")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.release("v1", version: 1)
        try work.directory.write("empty/notes.txt", "not a feed\n")
        let before = work.tree(".")
        for (path, why) in [
            ("nowhere", "no such directory"), ("v1.sqlite", "it is a file, not a feed directory"),
            ("empty", "the directory holds no root.json"),
        ] {
            for command in [
                ["publish", path, "v1.sqlite", "--key", "k"], ["feed", "timestamp", path, "--key", "k"],
                ["feed", "prune", path, "--key", "k", "--keep", "1"],
                ["feed", "rotate", path, "--key", "k", "--new-key", "k2"],
                ["feed", "add-recovery-key", path, "--key", "k", recovery],
                ["feed", "verify", path, "--root", "feed/root.json"],
            ] {
                let refused = try work.dbgen(command)
                let what = command.joined(separator: " ")
                XCTAssertEqual(refused.status, 1, what)
                XCTAssertTrue(
                    refused.stderrText.hasPrefix("\(path): error: no feed at \(path): \(why)"),
                    what + ": " + refused.stderrText)
                XCTAssertEqual(refused.stderrText.components(separatedBy: "\n").count, 2, refused.stderrText)
            }
        }
        XCTAssertEqual(work.tree("."), before)
        let swapped = try work.dbgen(["publish", "v1.sqlite", "feed", "--key", "k"])
        XCTAssertEqual(
            swapped.stderrText,
            "v1.sqlite: error: no feed at v1.sqlite, but feed is one: the arguments are swapped (dbgen publish FEED NEW.sqlite)\n"
        )
        let verifySwapped = try work.dbgen(["feed", "verify", "feed/root.json", "--root", "feed"])
        XCTAssertEqual(
            verifySwapped.stderrText,
            "feed/root.json: error: no feed at feed/root.json: it is a file, not a feed directory; "
                + "feed is one: the feed comes first, its root.json after --root\n")
        let rootDirectory = try work.dbgen(["feed", "verify", "feed", "--root", "feed"])
        XCTAssertTrue(
            rootDirectory.stderrText.hasPrefix("feed: error: a directory: --root takes the root.json file"),
            rootDirectory.stderrText)
        let initOnFile = try work.dbgen(["feed", "init", "v1.sqlite", "--key", "k"])
        XCTAssertTrue(
            initOnFile.stderrText.hasPrefix("v1.sqlite: error: a file, not a directory"), initOnFile.stderrText)
        XCTAssertEqual(work.tree("."), before)
    }

    func testAURLThatIsNotHTTPSaysWhatIsExpected() throws {
        let work = try FeedWorkspace(self)
        try work.key("k")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.release("v1", version: 1)
        for url in ["feed", "ftp://example.com/feed/", "file:///srv/feed/", "https:feed"] {
            let fetched = try work.dbgen(
                ["fetch", url, "--root", "feed/root.json", "--bundled", "v1.sqlite", "--updates", "updates"])
            XCTAssertEqual(fetched.status, 1, url)
            XCTAssertEqual(
                fetched.stderrText,
                "\(url): error: not an http(s) URL: expected the feed's http:// or https:// address "
                    + "(a feed directory is checked with `dbgen feed verify DIR --root ROOT`)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.directory.url("updates").path), url)
        }
        let verified = try work.dbgen(["feed", "verify", "ftp://example.com/feed/", "--root", "feed/root.json"])
        XCTAssertEqual(
            verified.stderrText,
            "ftp://example.com/feed/: error: not an http(s) URL: expected the feed's directory or its http:// or https:// address\n"
        )
    }

    func testAUserVersionNotAboveTheNewestReleaseSaysHowToFixIt() throws {
        let work = try FeedWorkspace(self)
        try work.key("k")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.release("v2", version: 2)
        try work.release("other", version: 2, every: 3)
        try work.succeed(["publish", "feed", "v2.sqlite", "--key", "k"])
        let before = work.tree("feed")
        let refused = try work.dbgen(["publish", "feed", "other.sqlite", "--key", "k"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(
            refused.stderrText,
            "other.sqlite: error: user_version 2 is not greater than that of the newest release (2): devices install "
                + "only newer data; raise `PRAGMA user_version` in the schema script (to 3 or more) and build again\n")
        XCTAssertEqual(work.tree("feed"), before)
    }

    func testAnotherFeedsRootIsToldSoInWordsNamingTheKeysOfBoth() throws {
        let work = try FeedWorkspace(self)
        let ours = try work.key("ours.key")
        let theirs = try work.key("theirs.key")
        try work.succeed(["feed", "init", "ours", "--key", "ours.key"])
        try work.succeed(["feed", "init", "theirs", "--key", "theirs.key"])
        try work.release("v1", version: 1)
        try work.release("v2", version: 2, every: 4)
        for name in ["v1", "v2"] { try work.succeed(["publish", "theirs", "\(name).sqlite", "--key", "theirs.key"]) }
        let verified = try work.dbgen(["feed", "verify", "theirs", "--root", "ours/root.json"])
        XCTAssertEqual(verified.status, 1)
        XCTAssertTrue(
            verified.stderrText.hasPrefix("timestamp.json: error: timestamp.json at file://"), verified.stderrText)
        for words in [
            "is not signed by the keys of ours/root.json (root version 1, key \(ours)), and this feed's 1.root.json "
                + "names key \(theirs) instead: is ours/root.json this feed's root? (signatures: 0 valid of the 1 required"
        ] {
            XCTAssertTrue(verified.stderrText.contains(words), verified.stderrText)
        }
        let nginx = try NginxServer(serving: work.directory.url("theirs"))
        defer { nginx.stop() }
        let fetched = try work.dbgen(
            [
                "fetch", nginx.url("/").absoluteString, "--root", "ours/root.json", "--bundled", "v1.sqlite",
                "--updates", "u",
            ])
        XCTAssertEqual(fetched.status, 1)
        XCTAssertTrue(
            fetched.stderrText.contains(
                "is not signed by the keys of the bundled root.json (root version 1, key \(ours)), and this feed's "
                    + "1.root.json names key \(theirs) instead: is the bundled root.json this feed's root?"),
            fetched.stderrText)
        XCTAssertEqual(work.tree("u").keys.filter { $0.hasSuffix(".sqlite") }, [])
        // Their feed rotated: the first root a device walks to is refused, in the same words.
        try work.key("theirs-new.key")
        try work.succeed(["feed", "rotate", "theirs", "--key", "theirs.key", "--new-key", "theirs-new.key"])
        let rotated = try work.dbgen(["feed", "verify", "theirs", "--root", "ours/root.json"])
        XCTAssertTrue(rotated.stderrText.hasPrefix("2.root.json: error: 2.root.json at file://"), rotated.stderrText)
        XCTAssertTrue(rotated.stderrText.contains("is ours/root.json this feed's root?"), rotated.stderrText)
    }
}
