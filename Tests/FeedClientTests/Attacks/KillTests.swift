import FeedClient
import FileSystemKit
import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen fetch` (the same client code) killed with SIGKILL: during the download (the next run
/// resumes it with Range) and at random moments of the install (the database in effect is then
/// the old release or the new one exactly, never a mix).
final class KillTests: XCTestCase {
    private func arguments(_ fixture: FeedFixture, url: URL) -> [String] {
        let root = fixture.temporary.url("root.json")
        try? fixture.writer.bundledRoot.write(to: root)
        return [
            "fetch", url.absoluteString, "--root", root.path, "--bundled", fixture.bundled.path,
            "--updates", fixture.updates.path,
        ]
    }

    func testAKillDuringTheDownloadIsResumedByTheNextRun() async throws {
        let fixture = try FeedFixture(rows: 20_000, publishBundled: false, removedAfter: self)
        let v2 = try fixture.writer.publish(
            try fixture.release(2, sql: "UPDATE food SET name = hex(randomblob(20)); VACUUM;"))
        let nginx = try NginxServer(serving: fixture.writer.directory, limitRate: 300_000)
        defer { nginx.stop() }
        let whole = try XCTUnwrap(fixture.writer.wholeTarget(v2))
        let partial = fixture.updates.appendingPathComponent(".feed/staging/\(whole.hashes[0].hex).partial")
        let before = try fixture.state()

        let child = try ProcessRunner.start(BuiltProducts.path("dbgen"), arguments(fixture, url: nginx.url("/")))
        let deadline = Date().addingTimeInterval(30)
        while Self.size(partial) < 100_000, Date() < deadline, child.isRunning { usleep(20_000) }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let staged = Self.size(partial)
        XCTAssertGreaterThanOrEqual(staged, 100_000)
        XCTAssertLessThan(staged, Int(whole.length))
        XCTAssertEqual(try fixture.state(), before, "nothing installed")

        let run = try BuiltProducts.run("dbgen", arguments(fixture, url: nginx.url("/")))
        XCTAssertEqual(run.status, 0, run.stderrText)
        XCTAssertTrue(run.stderrText.contains("installed user_version 2 via the whole file"), run.stderrText)
        XCTAssertEqual(try fixture.inEffect(), v2)
        let blob = nginx.accessLog().filter { $0.uri.hasPrefix("/targets/") }
        XCTAssertEqual(blob.last?.status, 206)
        XCTAssertTrue(blob.last.map { $0.range.hasPrefix("bytes=") && $0.range != "bytes=0-" } ?? false)
    }

    func testAKillDuringTheInstallLeavesTheOldDataOrTheNew() async throws {
        let fixture = try FeedFixture(rows: 60_000, publishBundled: false, removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2, sql: "UPDATE food SET kcal = kcal * 2;"))
        let url = try fixture.nginx.url("/")
        let started = Date()
        let first = try BuiltProducts.run("dbgen", arguments(fixture, url: url))
        XCTAssertEqual(first.status, 0, first.stderrText)
        let duration = Date().timeIntervalSince(started)
        var generator = SeededGenerator(seed: 29)
        var outcomes: Set<String> = []
        for _ in 0..<8 {
            // Back to the old data; the download stays staged, so most of a run is the install.
            for name in ["food.sqlite", ".food.sqlite.content", ".feed/metadata", ".feed/timestamp.etag"] {
                try? FileManager.default.removeItem(at: fixture.updates.appendingPathComponent(name))
            }
            try fixture.writer.bundledRoot.write(to: fixture.temporary.url("root.json"))
            let child = try ProcessRunner.start(BuiltProducts.path("dbgen"), arguments(fixture, url: url))
            usleep(UInt32(Double.random(in: 0...duration, using: &generator) * 1_000_000))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let inEffect = try fixture.inEffect()
            XCTAssertTrue([fixture.first, v2].contains(inEffect), "a mix: \(inEffect)")
            outcomes.insert("\(inEffect.userVersion)")
            XCTAssertEqual(
                try Oracle.sqlite3Script(
                    FileManager.default.fileExists(atPath: fixture.updates.appendingPathComponent("food.sqlite").path)
                        ? fixture.updates.appendingPathComponent("food.sqlite").path : fixture.bundled.path,
                    "PRAGMA quick_check;"
                ).trimmingCharacters(in: .whitespacesAndNewlines), "ok")
        }
        let last = try BuiltProducts.run("dbgen", arguments(fixture, url: url))
        XCTAssertEqual(last.status, 0, last.stderrText)
        XCTAssertEqual(try fixture.inEffect(), v2)
        print("kill during install: outcomes \(outcomes.sorted()) in 8 runs of ~\(duration) s")
    }

    private static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}
