import Foundation
import ShipyardTestSupport
import SyncProtocol
import XCTest

/// `dbgen sync USERDB --server URL --token TOKEN` through the built executable, against
/// python3's http.server answering with answers built by SyncProtocol: exit 0 and the summary;
/// exit 1 with `WHAT: error: WHY` and every change still queued; `kill -9` between freezing a
/// batch and its acknowledgement leaves the batch in flight, sent again by the next run.
final class DBGenSyncCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("dbgen-sync-command", removedAfter: self)
        try directory.write(
            "user.sql",
            """
            CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, body TEXT, stars INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
            INSERT INTO shipyard_sync VALUES ('note', NULL, 'last-edit-wins'), ('note', 'stars', 'counter');

            """)
        let build = try dbgen(["user.sql", "-o", "user.sqlite"])
        XCTAssertEqual(build.status, 0, build.stderrText)
        _ = try query("INSERT INTO note VALUES ('n1', 'written by sqlite3', 2);")
    }

    @discardableResult
    private func dbgen(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws
        -> ProcessResult
    {
        try BuiltProducts.run("dbgen", arguments, in: directory.url, environment: environment, input: input)
    }

    private func query(_ sql: String) throws -> String {
        try DBGenTestSupport.query(directory.url("user.sqlite"), sql)
    }

    private static let pulled = SyncAnswer(
        clock: 1_800_000_000_000, batch: 1, status: .applied,
        tables: [SyncTableColumns(name: "note", columns: ["body", "stars"])],
        rows: [
            SyncPulledRow(
                table: 0, key: .text("n2"),
                cells: [
                    SyncPulledCell(column: 0, content: .row(exists: true)),
                    SyncPulledCell(column: 1, content: .value(.text("from another device"))),
                    SyncPulledCell(column: 2, content: .value(.integer(5))),
                ])
        ], cursor: 41)

    func testASyncExitsZeroPrintsItsSummaryAndAppliesTheAnswer() throws {
        let endpoint = try PythonSyncEndpoint()
        try endpoint.answer(Self.pulled.encoded())
        let result = try dbgen(
            ["sync", "user.sqlite", "--server", endpoint.url.absoluteString, "--token", "env:SYNC_TOKEN", "--json"],
            environment: ["SYNC_TOKEN": "a.b.c"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(summary["sent"] as? Int, 3)
        XCTAssertEqual(summary["received"] as? Int, 1)
        XCTAssertEqual(summary["conflicts"] as? Int, 0)
        XCTAssertEqual(summary["requests"] as? Int, 1)
        XCTAssertEqual(summary["cursor"] as? Int, 41)
        XCTAssertEqual(
            try query("SELECT * FROM note ORDER BY id;"), "n1|written by sqlite3|2\nn2|from another device|5\n")
        XCTAssertEqual(try query("SELECT count(*) FROM shipyard_sync_outbox;"), "0\n")
        XCTAssertEqual(try endpoint.head(0).headers["authorization"], "Bearer a.b.c")
        let request = try SyncRequest(decoding: try endpoint.body(0))
        XCTAssertEqual(request.batch?.rows.count, 1)
        XCTAssertEqual(request.batch?.tables, [SyncTableColumns(name: "note", columns: ["body", "stars"])])

        // Without --json, one line on standard error; the token from standard input.
        try endpoint.answer(SyncAnswer(clock: 1_800_000_000_000, cursor: 41).encoded())
        let again = try dbgen(
            ["sync", "user.sqlite", "--server", endpoint.url.absoluteString, "--token", "-"], input: Data("t\n".utf8))
        XCTAssertEqual(again.status, 0, again.stderrText)
        XCTAssertEqual(again.stdoutText, "")
        XCTAssertTrue(
            again.stderrText.contains("synced user.sqlite: sent 0, received 0, conflicts 0 (1 request"),
            again.stderrText)
        XCTAssertEqual(try endpoint.head(1).headers["authorization"], "Bearer t")
    }

    func testFailuresExitOneNamingWhatFailedAndLoseNothing() throws {
        let endpoint = try PythonSyncEndpoint()
        try endpoint.refuse(0, status: 401)
        let server = endpoint.url.absoluteString
        let closed = "http://127.0.0.1:\(try closedPort())/"
        let cases: [([String], [String: String], String)] = [
            (
                ["sync", "user.sqlite", "--server", server, "--token", "t"], [:],
                "\(server): error: HTTP 401: refused by the test"
            ),
            (["sync", "user.sqlite", "--server", closed, "--token", "t"], [:], "\(closed): error: "),
            (
                ["sync", "user.sqlite", "--server", "ftp://x", "--token", "t"], [:],
                "ftp://x: error: not an http or https URL"
            ),
            (
                ["sync", "missing.sqlite", "--server", server, "--token", "t"], [:],
                "missing.sqlite: error: no such file"
            ),
            (
                ["sync", "user.sqlite", "--server", server, "--token", "env:NOPE"], [:],
                "--token: error: the environment variable NOPE is not set"
            ),
            (["sync", "user.sql", "--server", server, "--token", "t"], [:], "user.sql: error: "),
        ]
        for (arguments, environment, message) in cases {
            let result = try dbgen(arguments, environment: environment)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderrText)")
            XCTAssertTrue(result.stderrText.hasPrefix(message), "\(arguments): \(result.stderrText)")
            XCTAssertEqual(result.stdoutText, "")
        }
        // The change is still queued: in flight, sent again as it was.
        XCTAssertEqual(try query("SELECT count(*) FROM shipyard_sync_inflight;"), "3\n")
        try endpoint.answer(Self.pulled.encoded())
        XCTAssertEqual(try dbgen(["sync", "user.sqlite", "--server", server, "--token", "t"]).status, 0)
        // The same batch (the request's clock field is the only difference).
        XCTAssertEqual(
            try SyncRequest(decoding: try endpoint.body(0)).batch,
            try SyncRequest(decoding: try endpoint.body(endpoint.requestCount - 1)).batch)
        XCTAssertEqual(try query("SELECT count(*) FROM shipyard_sync_inflight;"), "0\n")
    }

    /// SIGKILL while the answer is on its way: the batch frozen before the request stays in
    /// flight (none of its changes lost, none queued twice), and the next run sends it again.
    func testAKillBetweenFreezeAndAcknowledgementLeavesTheBatchToSendAgain() throws {
        let slow = try FaultInjectingHTTPServer()
        slow.script("v1/sync", .trickle(Data(count: 64), etag: "\"e\"", bytesPerChunk: 1, interval: 5))
        let process = try ProcessRunner.start(
            try BuiltProducts.path("dbgen"),
            ["sync", "user.sqlite", "--server", slow.url("").absoluteString, "--token", "t"], in: directory.url)
        let deadline = Date().addingTimeInterval(60)
        while slow.requestCount("v1/sync") == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(slow.requestCount("v1/sync"), 1)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        slow.stop()
        XCTAssertEqual(try query("PRAGMA integrity_check;"), "ok\n")
        XCTAssertEqual(
            try query("SELECT batch, tbl, pk, col, op, delta FROM shipyard_sync_inflight ORDER BY row, cell;"),
            "1|note|n1||1|\n1|note|n1|body|2|\n1|note|n1|stars|3|2\n")
        XCTAssertEqual(try query("SELECT count(*) FROM shipyard_sync_outbox;"), "0\n")

        let endpoint = try PythonSyncEndpoint()
        try endpoint.answer(Self.pulled.encoded())
        let result = try dbgen(["sync", "user.sqlite", "--server", endpoint.url.absoluteString, "--token", "t"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let resent = try XCTUnwrap(try SyncRequest(decoding: try endpoint.body(0)).batch)
        XCTAssertEqual(resent.id, 1)
        XCTAssertEqual(
            resent.rows.first?.cells.map(\.change),
            [.row(exists: true), .value(.text("written by sqlite3")), .increment(2)])
        XCTAssertEqual(try query("SELECT count(*) FROM shipyard_sync_inflight;"), "0\n")
    }

    /// A port of 127.0.0.1 nothing listens on.
    private func closedPort() throws -> Int {
        let server = try FaultInjectingHTTPServer()
        let port = Int(server.port)
        server.stop()
        return port
    }
}
