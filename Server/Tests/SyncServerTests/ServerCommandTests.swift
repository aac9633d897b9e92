import Foundation
import SyncServerTestSupport
import XCTest

/// `shipyard-sync-server`'s command line: help, usage errors (64) and bad inputs (1), each
/// naming the flag or file.
final class ServerCommandTests: XCTestCase {
    let executable = SyncDurabilityTests.executable("shipyard-sync-server")

    func testHelpNamesEveryFlag() throws {
        let result = try CommandRunner.run(executable, ["--help"])
        XCTAssertEqual(result.status, 0)
        for flag in [
            "--postgres", "--postgres-replica", "--listen", "--schema", "--jwks", "--max-clock-skew",
            "--max-body-bytes", "--pull-limit",
        ] {
            XCTAssertTrue(result.output.contains(flag), "--help does not mention \(flag)")
        }
    }

    func testUsageErrorsExit64() throws {
        let result = try CommandRunner.run(executable, ["--listen", "127.0.0.1:0"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.errors.contains("--postgres") || result.errors.contains("--schema"), result.errors)
        let replicas = try CommandRunner.run(
            executable,
            [
                "--postgres", "postgres://u@127.0.0.1:1/db", "--postgres-replica", "postgres://u@127.0.0.1:2/db",
                "--postgres-replica", "postgres://u@127.0.0.1:3/db", "--listen", "127.0.0.1:0", "--schema", "s.sql",
                "--jwks", "k.json",
            ])
        XCTAssertEqual(replicas.status, 64)
        XCTAssertTrue(
            replicas.errors.contains("--postgres-replica: 2 replicas for 1 databases; give one per --postgres"),
            replicas.errors)
    }

    func testBadInputsExit1NamingTheFile() throws {
        let directory = NSTemporaryDirectory() + "/sync-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = directory + "/user.sql"
        try
            "CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT);\nCREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);\nINSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins');\n"
            .write(toFile: schema, atomically: true, encoding: .utf8)
        let jwks = directory + "/jwks.json"
        try #"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#
            .write(toFile: jwks, atomically: true, encoding: .utf8)
        let base = ["--postgres", "postgres://u@127.0.0.1:1/db", "--listen", "127.0.0.1:0"]
        var result = try CommandRunner.run(executable, base + ["--schema", schema, "--jwks", jwks])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.errors.contains(
                "\(schema):3:1: error: shipyard_sync: table \"t\": its key id is a bare INTEGER PRIMARY KEY"),
            result.errors
        )
        try
            "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, x TEXT);\nCREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);\nINSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins');\n"
            .write(toFile: schema, atomically: true, encoding: .utf8)
        result = try CommandRunner.run(executable, base + ["--schema", schema, "--jwks", jwks])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("\(jwks): keys[0] has no \"kid\""), result.errors)
        result = try CommandRunner.run(executable, base + ["--schema", schema, "--jwks", directory + "/missing.json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("missing.json: cannot read the JWKS file"), result.errors)
        result = try CommandRunner.run(
            executable, ["--postgres", "mysql://x", "--listen", "127.0.0.1:0", "--schema", schema, "--jwks", jwks])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("--postgres: 'mysql://x' is not a postgres://"), result.errors)
        result = try CommandRunner.run(
            executable,
            base + ["--postgres-replica", "http://x", "--schema", schema, "--jwks", jwks])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("--postgres-replica: 'http://x' is not a postgres://"), result.errors)
    }
}
