import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// A bundled database (user_version 7), newer versions of it, and an updates directory.
struct UpdateFixture {
    let directory: URL
    var bundled: String { directory.appendingPathComponent("database.sqlite").path }
    var updates: String { directory.appendingPathComponent("updates").path }
    var user: String { directory.appendingPathComponent("user.sqlite").path }
    var installed: String { updates + "/database.sqlite" }
    var installer: UpdateInstaller { UpdateInstaller(bundledPath: bundled, updatesDirectory: updates) }
    /// What the updates directory holds once an install has finished: the database and the
    /// record of the content it stands for.
    static let installedFiles = [".database.sqlite.content", "database.sqlite"]

    static func make(_ test: XCTestCase) throws -> UpdateFixture {
        let fixture = UpdateFixture(directory: try TemporaryDirectory("updates '\"", removedAfter: test).url)
        try sqlite3(fixture.bundled, bundledSchema)
        try sqlite3(
            fixture.user,
            "CREATE TABLE user_food(pk INTEGER PRIMARY KEY, name TEXT); INSERT INTO user_food VALUES (1, 'mine');")
        return fixture
    }

    /// A copy of the bundled database with `script` run on it, at `name`.
    func version(_ name: String, _ script: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: bundled, toPath: path)
        try sqlite3(path, script)
        return path
    }

    /// Every file of the updates directory (hidden ones too) with its bytes, and the
    /// bundled and user databases' bytes: what must not change when an install fails.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: updates)) ?? [] {
            files["updates/" + name] = FileManager.default.contents(atPath: updates + "/" + name) ?? Data()
        }
        files["bundled"] = FileManager.default.contents(atPath: bundled)
        files["user"] = FileManager.default.contents(atPath: user)
        return files
    }

    /// The user_version of the database a layered open attaches now.
    func attachedVersion() throws -> Int64 {
        let database = try LayeredDatabase(userPath: user, bundledPath: bundled, updatesDirectory: updates)
        return try database.connection.userVersion(schema: "bundle")
    }
}

/// Patches made by the built `dbgen diff`, and hashes by python3's hashlib (an oracle).
enum BuiltPatch {
    static func write(old: String, new: String, to path: String) throws {
        let result = try BuiltProducts.run("dbgen", ["diff", old, new])
        guard result.status == 0 else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "dbgen diff: \(result.stderrText)"])
        }
        try result.stdout.write(to: URL(fileURLWithPath: path))
    }

    static func sha256(_ path: String) throws -> String {
        try Oracle.python3.output([
            "-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", path,
        ])
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
