import Foundation
import ShipyardTestSupport
import XCTest

/// A temporary directory where the feed commands run as an operator runs them: keys made by
/// `dbgen keys generate`, releases built by dbgen from small scripts, feeds, and dbgen itself,
/// now or at a clock moved by faketime.
final class FeedWorkspace {
    let directory: TemporaryDirectory

    init(_ test: XCTestCase) throws {
        directory = try TemporaryDirectory("dbgen-feed-ops", removedAfter: test)
    }

    /// Runs dbgen in the workspace; with `at` (`+400 days`), under faketime at that offset.
    @discardableResult
    func dbgen(_ arguments: [String], at offset: String? = nil, environment: [String: String] = [:]) throws
        -> ProcessResult
    {
        guard let offset else {
            return try BuiltProducts.run("dbgen", arguments, in: directory.url, environment: environment)
        }
        return try Oracle.faketime.run(
            [offset, BuiltProducts.path("dbgen")] + arguments, in: directory.url, environment: environment)
    }

    /// Runs dbgen and fails the test unless it exits 0; returns what it printed.
    @discardableResult
    func succeed(_ arguments: [String], at offset: String? = nil, file: StaticString = #filePath, line: UInt = #line)
        throws -> ProcessResult
    {
        let result = try dbgen(arguments, at: offset)
        XCTAssertEqual(
            result.status, 0, "dbgen \(arguments.joined(separator: " ")): \(result.stderrText)", file: file, line: line)
        return result
    }

    /// `dbgen keys generate --out NAME`; returns the public key it printed.
    @discardableResult
    func key(_ name: String) throws -> String {
        try succeed(["keys", "generate", "--out", name]).stdoutText.trimmingCharacters(in: .newlines)
    }

    /// Builds `NAME.sqlite`: table t of `rows` rows, those where `id % every == 0` changed, and
    /// `user_version`.
    func release(_ name: String, version: Int, rows: Int = 500, every: Int = 0) throws {
        let value = every > 0 ? "CASE WHEN value % \(every) = 0 THEN 'new' ELSE 'old' END" : "'old'"
        try directory.write(
            "\(name).txt",
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO t SELECT value, \(value) || value || hex(value * 7919) FROM generate_series(1, \(rows));
            PRAGMA user_version = \(version);

            """)
        try succeed(["build", "\(name).txt", "-o", "\(name).sqlite", "--force"])
    }

    private var uploads = 0

    /// Dates `FEED/timestamp.json` seconds after any earlier one, as an upload made after the one
    /// before is: nginx's ETag is the modification time (seconds) and length, so a timestamp
    /// rewritten within the second at the same length would be answered 304 to a device holding
    /// the one before, which then sees nothing new.
    func upload(_ feed: String) throws {
        uploads += 1
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(10 * Double(uploads))],
            ofItemAtPath: directory.url(feed).appendingPathComponent("timestamp.json").path)
    }

    /// Every file under `path`, relative path to bytes.
    func tree(_ path: String) -> [String: Data] { DirectoryTree.files(under: directory.url(path).path) }

    /// Copies `from` to `to` in the workspace.
    func copy(_ from: String, to: String) throws {
        try FileManager.default.copyItem(at: directory.url(from), to: directory.url(to))
    }
}
