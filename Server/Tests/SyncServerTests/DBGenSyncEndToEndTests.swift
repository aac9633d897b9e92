import Foundation
import SyncProtocol
import SyncServer
import SyncServerTestSupport
import XCTest

/// `dbgen sync` (the built executable, SyncClient inside it) between user databases that dbgen
/// built and sqlite3 wrote, through the real server over this class's own PostgreSQL cluster,
/// with tokens from `dbgen sync token` verified against the set `dbgen keys jwks` printed: what
/// one device writes the other sees; refusals exit 1 naming the status and what failed, with
/// nothing written on the server and nothing lost on the device.
///
/// dbgen is the root package's (`swift build` there first; `SHIPYARD_DBGEN` names another).
final class DBGenSyncEndToEndTests: ServerTestCase {
    var directory = ""
    var verifier: TokenVerifier?

    override func makeVerifier(_ tokens: TestTokens) async throws -> TokenVerifier {
        directory = NSTemporaryDirectory() + "/dbgen-sync-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.schemaScript.write(toFile: directory + "/user.sql", atomically: true, encoding: .utf8)
        try dbgenSucceeds(["keys", "generate", "--out", "sync.key"])
        try dbgenSucceeds(["keys", "generate", "--out", "other.key"])
        let jwks = try dbgenSucceeds(["keys", "jwks", "sync.key"]).output
        let verifier = try await TokenVerifier(jwks: Data(jwks.utf8), source: "dbgen keys jwks")
        self.verifier = verifier
        return verifier
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: directory)
        try await super.tearDown()
    }

    // MARK: Running dbgen and sqlite3

    /// The dbgen executable: `SHIPYARD_DBGEN`, else the root package's debug build.
    static func dbgenPath() throws -> String {
        if let named = ProcessInfo.processInfo.environment["SHIPYARD_DBGEN"] { return named }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let path = root.appendingPathComponent(".build/debug/dbgen").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("no dbgen at \(path): run `swift build --product dbgen` in the root package first")
        }
        return path
    }

    /// What a command printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs dbgen in the test's directory (after `prefix`, e.g. faketime and its time), with
    /// `environment` added and `input` on standard input.
    @discardableResult
    func dbgen(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, prefix: [String] = []
    ) throws -> Run {
        let process = Process()
        let command = prefix + [try Self.dbgenPath()] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self))
    }

    @discardableResult
    func dbgenSucceeds(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let run = try dbgen(arguments)
        guard run.status == 0 else {
            throw TestSupportError("dbgen \(arguments.joined(separator: " ")) exited \(run.status): \(run.errors)")
        }
        return run
    }

    /// sqlite3 (the oracle) on `database` in the test's directory.
    @discardableResult
    func sql(_ database: String, _ statements: String) throws -> String {
        let result = try CommandRunner.run("/usr/bin/sqlite3", [directory + "/" + database, statements])
        guard result.status == 0 else { throw TestSupportError("sqlite3 \(database): \(result.errors)") }
        return result.output
    }

    /// A user database built from `script` (the test schema unless given) by `dbgen build`.
    func userDatabase(_ name: String, script: String? = nil) throws {
        var source = "user.sql"
        if let script {
            source = name + ".sql"
            try script.write(toFile: directory + "/" + source, atomically: true, encoding: .utf8)
        }
        try dbgenSucceeds(["build", source, "-o", name])
    }

    /// A token of `user` signed with `key` by `dbgen sync token`.
    func token(_ user: String, key: String = "sync.key", expires: Int = 3600) throws -> String {
        try dbgenSucceeds(["sync", "token", "--key", key, "--user", user, "--expires", "\(expires)"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `dbgen sync DATABASE --server … --token TOKEN` plus `extra`.
    func sync(
        _ database: String, token: String, _ extra: [String] = [], environment: [String: String] = [:],
        input: String? = nil, prefix: [String] = []
    ) throws -> Run {
        try dbgen(
            ["sync", database, "--server", try XCTUnwrap(server).baseURL, "--token", token] + extra,
            environment: environment, input: input, prefix: prefix)
    }

    /// What both devices must agree on: every synced table's rows.
    func syncedRows(_ database: String) throws -> String {
        try sql(
            database,
            "SELECT 'list', id, title, owner, locked FROM list ORDER BY id; "
                + "SELECT 'item', id, list_id, name, done, quantity FROM item ORDER BY id;")
    }

    // MARK: Tests

    func testWhatOneDeviceWritesTheOtherSeesThroughTheServer() throws {
        let owner = user("cli")
        let bearer = try token(owner)
        try userDatabase("a.sqlite")
        try userDatabase("b.sqlite")
        try sql(
            "a.sqlite",
            "INSERT INTO list (id, title) VALUES ('L1', 'groceries'); "
                + "INSERT INTO item (id, list_id, name, quantity) VALUES ('I1', 'L1', 'milk', 2);")

        // Device A: --json on standard output, the token given as is.
        let first = try sync("a.sqlite", token: bearer, ["--json"])
        XCTAssertEqual(first.status, 0, first.errors)
        let summary = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any], first.output)
        XCTAssertGreaterThanOrEqual(summary["sent"] as? Int ?? 0, 2, first.output)
        XCTAssertEqual(summary["conflicts"] as? Int, 0)
        XCTAssertEqual(
            Set(summary.keys), ["sent", "received", "conflicts", "requests", "bytes_sent", "bytes_received", "cursor"])
        XCTAssertFalse(try cells(of: "user:\(owner)").isEmpty, "the server has A's rows")

        // Device B: the token on standard input; one line on standard error, nothing on output.
        let second = try sync("b.sqlite", token: "-", input: bearer + "\n")
        XCTAssertEqual(second.status, 0, second.errors)
        XCTAssertEqual(second.output, "")
        XCTAssertTrue(second.errors.contains("synced b.sqlite: sent 0, received 2"), second.errors)
        XCTAssertEqual(try syncedRows("b.sqlite"), try syncedRows("a.sqlite"))
        let onB = try syncedRows("b.sqlite")
        XCTAssertTrue(onB.contains("item|I1|L1|milk|0|2"), onB)

        // B edits (the token from a variable); A receives it; counters add up.
        try sql("b.sqlite", "UPDATE item SET name = 'oat milk', quantity = quantity + 3 WHERE id = 'I1';")
        try sql("a.sqlite", "UPDATE item SET quantity = quantity + 1 WHERE id = 'I1';")
        let fromB = try sync("b.sqlite", token: "env:SYNC_TOKEN", environment: ["SYNC_TOKEN": bearer])
        XCTAssertEqual(fromB.status, 0, fromB.errors)
        XCTAssertEqual(try sync("a.sqlite", token: bearer).status, 0)
        XCTAssertEqual(try sync("b.sqlite", token: bearer).status, 0)
        XCTAssertEqual(try syncedRows("b.sqlite"), try syncedRows("a.sqlite"))
        let onA = try syncedRows("a.sqlite")
        XCTAssertTrue(onA.contains("item|I1|L1|oat milk|0|6"), onA)

        // Nothing new: one request.
        let idle = try sync("a.sqlite", token: bearer, ["--json"])
        XCTAssertEqual(idle.status, 0, idle.errors)
        let idleSummary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(idle.output.utf8)) as? [String: Any])
        XCTAssertEqual(idleSummary["requests"] as? Int, 1)
        XCTAssertEqual(idleSummary["sent"] as? Int, 0)
        XCTAssertEqual(idleSummary["received"] as? Int, 0)
    }

    /// Each refused token: exit 1, `SERVER: error: HTTP 401: …` naming the check, the server's
    /// tables unchanged; the changes stay queued and a good token sends them afterwards.
    func testRefusedTokensExitOneWriteNothingAndLoseNothing() throws {
        let owner = user("refused")
        try userDatabase("a.sqlite")
        try sql("a.sqlite", "INSERT INTO list (id, title) VALUES ('L1', 'kept');")
        let good = try token(owner)
        let otherKey = try token(owner, key: "other.key")
        let parts = good.split(separator: ".")
        let forged = "\(parts[0]).\(parts[1]).\(otherKey.split(separator: ".")[2])"
        let expiring = try token(owner, expires: 1)
        Thread.sleep(forTimeInterval: 2.2)
        let cases: [(String, String)] = [
            ("not-a-token", "not a JWT"),
            (forged, "the signature does not verify"),
            (otherKey, "unknown kid"),
            (expiring, "expired at"),
        ]
        let before = try serverState()
        let server = try XCTUnwrap(self.server).baseURL
        for (bearer, words) in cases {
            let run = try sync("a.sqlite", token: bearer)
            XCTAssertEqual(run.status, 1, "\(words): \(run.errors)")
            XCTAssertTrue(run.errors.contains("\(server): error: HTTP 401: "), run.errors)
            XCTAssertTrue(run.errors.contains(words), "'\(run.errors)' does not say '\(words)'")
            XCTAssertEqual(run.output, "")
            XCTAssertEqual(try serverState(), before, "a refused sync wrote nothing: \(words)")
        }
        // --token from a variable that is not set: refused before any request.
        let unset = try sync("a.sqlite", token: "env:SHIPYARD_NO_SUCH_TOKEN")
        XCTAssertEqual(unset.status, 1)
        XCTAssertTrue(
            unset.errors.contains("--token: error: the environment variable SHIPYARD_NO_SUCH_TOKEN"), unset.errors)
        XCTAssertEqual(try serverState(), before)

        let run = try sync("a.sqlite", token: good, ["--json"])
        XCTAssertEqual(run.status, 0, run.errors)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        XCTAssertGreaterThan(summary["sent"] as? Int ?? 0, 0, run.output)
        XCTAssertEqual(try cells(of: "user:\(owner)")["list \(SyncValue.text("L1")) title"], .text("kept"))
    }

    /// A usage error exits 64 naming the flag; a server that does not answer, or a URL that is
    /// not http(s), exits 1 naming it, with every change still queued for the next sync.
    func testUsageErrorsAndAnUnreachableServer() throws {
        let owner = user("exits")
        let bearer = try token(owner)
        try userDatabase("a.sqlite")
        try sql("a.sqlite", "INSERT INTO list (id, title) VALUES ('L1', 'queued');")
        let usage = try dbgen(["sync", "a.sqlite", "--token", bearer])
        XCTAssertEqual(usage.status, 64, usage.errors)
        XCTAssertTrue(usage.errors.contains("--server"), usage.errors)
        let port = try freeLoopbackPort()
        let unreachable = try dbgen(["sync", "a.sqlite", "--server", "http://127.0.0.1:\(port)", "--token", bearer])
        XCTAssertEqual(unreachable.status, 1, unreachable.errors)
        XCTAssertTrue(unreachable.errors.hasPrefix("http://127.0.0.1:\(port): error: "), unreachable.errors)
        let notHTTP = try dbgen(["sync", "a.sqlite", "--server", "ftp://127.0.0.1/", "--token", bearer])
        XCTAssertEqual(notHTTP.status, 1)
        XCTAssertTrue(notHTTP.errors.contains("ftp://127.0.0.1/: error: not an http or https URL"), notHTTP.errors)
        let missing = try dbgen(["sync", "missing.sqlite", "--server", "http://127.0.0.1:1", "--token", bearer])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.errors.contains("missing.sqlite: error: no such file"), missing.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/missing.sqlite"))
        XCTAssertEqual(try sync("a.sqlite", token: bearer).status, 0)
        XCTAssertEqual(try cells(of: "user:\(owner)")["list \(SyncValue.text("L1")) title"], .text("queued"))
    }

    /// A device whose schema syncs a table or a column the server's does not: 422 naming it,
    /// nothing written, the change still queued.
    func testATableOrColumnTheServerDoesNotSyncIsRefused() throws {
        let owner = user("extra")
        let bearer = try token(owner)
        let extraTable =
            Self.schemaScript
            + "\nCREATE TABLE secret (id TEXT PRIMARY KEY NOT NULL, body TEXT);\n"
            + "INSERT INTO shipyard_sync VALUES ('secret', NULL, 'last-edit-wins');\n"
        let extraColumn = Self.schemaScript.replacingOccurrences(
            of: "locked TEXT);", with: "locked TEXT, password TEXT);")
        try userDatabase("table.sqlite", script: extraTable)
        try userDatabase("column.sqlite", script: extraColumn)
        try sql("table.sqlite", "INSERT INTO secret VALUES ('s1', 'hidden');")
        try sql("column.sqlite", "INSERT INTO list (id, title, password) VALUES ('L1', 't', 'pw');")
        let before = try serverState()
        for (database, words) in [
            ("table.sqlite", "table 'secret' does not sync"),
            ("column.sqlite", "column 'password' of table 'list' does not sync"),
        ] {
            let run = try sync(database, token: bearer)
            XCTAssertEqual(run.status, 1, run.errors)
            XCTAssertTrue(run.errors.contains(": error: HTTP 422: "), run.errors)
            XCTAssertTrue(run.errors.contains(words), "'\(run.errors)' does not say '\(words)'")
            XCTAssertEqual(try serverState(), before, database)
        }
        XCTAssertEqual(try sql("table.sqlite", "SELECT body FROM secret;"), "hidden\n")
    }

    /// A device on user schema v2 (list gains `color`) and one on v1, side by side through a
    /// server on v2: the old device never erases the column it does not know, every new device
    /// receives every value, and the old one, once migrated, receives the values it ignored.
    func testDevicesOnTwoSchemaVersionsSyncSideBySide() async throws {
        let v2 = Self.schemaScript.replacingOccurrences(of: "locked TEXT);", with: "locked TEXT, color TEXT);")
        XCTAssertNotEqual(v2, Self.schemaScript)
        try v2.write(toFile: directory + "/v2.sql", atomically: true, encoding: .utf8)
        await server?.stop()
        server = try await InProcessSyncServer(
            configuration: SyncServerConfiguration(
                schema: try UserSchemaScript.read(scriptAt: directory + "/v2.sql"), verifier: try XCTUnwrap(verifier)),
            postgresURLs: [try requireCluster().url()])
        let owner = user("versions")
        let bearer = try token(owner)
        try userDatabase("old.sqlite")
        try userDatabase("new.sqlite", script: v2)

        try sql("new.sqlite", "INSERT INTO list (id, title, color) VALUES ('L1', 'from new', 'red');")
        XCTAssertEqual(try sync("new.sqlite", token: bearer).status, 0)
        var run = try sync("old.sqlite", token: bearer)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(try sql("old.sqlite", "SELECT id, title FROM list;"), "L1|from new\n")

        // The old device edits the row and adds one: it knows nothing of color.
        try sql(
            "old.sqlite",
            "UPDATE list SET title = 'renamed by old' WHERE id = 'L1'; "
                + "INSERT INTO list (id, title) VALUES ('L2', 'from old');")
        run = try sync("old.sqlite", token: bearer)
        XCTAssertEqual(run.status, 0, run.errors)
        run = try sync("new.sqlite", token: bearer)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(
            try sql("new.sqlite", "SELECT id, title, color FROM list ORDER BY id;"),
            "L1|renamed by old|red\nL2|from old|\n", "the old device erased nothing")

        try sql("new.sqlite", "UPDATE list SET color = 'blue' WHERE id = 'L2';")
        XCTAssertEqual(try sync("new.sqlite", token: bearer).status, 0)
        run = try sync("old.sqlite", token: bearer)
        XCTAssertEqual(run.status, 0, run.errors)
        try sql("old.sqlite", "UPDATE list SET title = 'old again' WHERE id = 'L2';")
        XCTAssertEqual(try sync("old.sqlite", token: bearer).status, 0)

        let stored = try cells(of: "user:\(owner)")
        XCTAssertEqual(stored["list \(SyncValue.text("L1")) color"], .text("red"))
        XCTAssertEqual(stored["list \(SyncValue.text("L2")) color"], .text("blue"))
        // The new device, and a new one starting from nothing, have every value.
        XCTAssertEqual(try sync("new.sqlite", token: bearer).status, 0)
        try userDatabase("fresh.sqlite", script: v2)
        XCTAssertEqual(try sync("fresh.sqlite", token: bearer).status, 0)
        for database in ["new.sqlite", "fresh.sqlite"] {
            XCTAssertEqual(
                try sql(database, "SELECT id, title, color FROM list ORDER BY id;"),
                "L1|renamed by old|red\nL2|old again|blue\n", database)
        }
        XCTAssertEqual(
            try sql("old.sqlite", "SELECT id, title FROM list ORDER BY id;"), "L1|renamed by old\nL2|old again\n")

        // The old device migrates to v2 (the app's update adds the column): its next sync
        // receives the values it ignored before, and its own edits of the column sync.
        try sql("old.sqlite", "ALTER TABLE list ADD COLUMN color TEXT;")
        run = try sync("old.sqlite", token: bearer)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(
            try sql("old.sqlite", "SELECT id, title, color FROM list ORDER BY id;"),
            "L1|renamed by old|red\nL2|old again|blue\n")
        try sql("old.sqlite", "UPDATE list SET color = 'green' WHERE id = 'L1';")
        XCTAssertEqual(try sync("old.sqlite", token: bearer).status, 0)
        XCTAssertEqual(try sync("new.sqlite", token: bearer).status, 0)
        XCTAssertEqual(try sql("new.sqlite", "SELECT color FROM list WHERE id = 'L1';"), "green\n")
    }

    /// A device whose clock runs two hours ahead (faketime, for sqlite3's writes and dbgen's
    /// sync): the server refuses its stamps, the device restamps at the server's clock, and what
    /// the server stores is never ahead of the server's own time.
    func testADeviceClockFarAheadIsClampedToTheServers() throws {
        let owner = user("ahead")
        let bearer = try token(owner)
        try userDatabase("a.sqlite")
        let ahead = ["/usr/bin/faketime", "-f", "+2h"]
        let written = try CommandRunner.run(
            ahead[0],
            [
                ahead[1], ahead[2], "/usr/bin/sqlite3", directory + "/a.sqlite",
                "INSERT INTO list (id, title) VALUES ('F', 'future');",
            ])
        XCTAssertEqual(written.status, 0, written.errors)
        let run = try sync("a.sqlite", token: bearer, ["--json"], prefix: ahead)
        XCTAssertEqual(run.status, 0, run.errors)
        let newest = try requireCluster().psql(
            "SELECT max(hlc) FROM shipyard_cells WHERE space = 'user:\(owner)'"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let stamp = HLC(rawValue: try XCTUnwrap(Int64(newest), newest))
        XCTAssertLessThanOrEqual(stamp.milliseconds, SimulatedDevice.now(), "a stamp from the future was stored")
        XCTAssertEqual(try cells(of: "user:\(owner)")["list \(SyncValue.text("F")) title"], .text("future"))
    }
}
