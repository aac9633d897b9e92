@testable import DBGenKit
import Foundation
import ShipyardTestSupport
import XCTest

/// One script built twice in the same directory: by the sqlite3 shell (`sqlite3 DB < script`)
/// and by ``DatabaseBuilder`` (the code `dbgen build` runs), then compared.
struct ShellScriptDifferential {
    /// What the shell did.
    struct ShellOutcome {
        var status: Int32
        var stderr: String
        var content: [String]
    }

    /// What dbgen did: the content, or the error it stopped with.
    struct DBGenOutcome {
        var content: [String]?
        var error: DBGenError?
        var warnings: [Diagnostic]
    }

    let directory: TemporaryDirectory

    /// A fresh directory holding `files` (relative paths → contents).
    init(files: [String: String] = [:], removedAfter test: XCTestCase) throws {
        directory = try TemporaryDirectory("shell-diff", removedAfter: test)
        for (path, text) in files { try directory.write(path, text) }
    }

    /// `sqlite3 shell.sqlite < script`, run in the directory.
    func runShell(_ script: String) throws -> ShellOutcome {
        let database = directory.url("shell.sqlite")
        try? FileManager.default.removeItem(at: database)
        let result = try Oracle.sqlite3.run([database.path], in: directory.url, stdin: script)
        let content =
            FileManager.default.fileExists(atPath: database.path)
            ? try ImportDifferentialHarness.dump(database) : []
        return ShellOutcome(status: result.status, stderr: result.stderrText, content: content)
    }

    /// dbgen's build of `script` (written as `script.txt`) into `dbgen.sqlite`.
    func runDBGen(_ script: String) throws -> DBGenOutcome {
        try directory.write("script.txt", script)
        var options = BuildOptions(schema: directory.url("script.txt").path, output: directory.url("dbgen.sqlite").path)
        options.force = true
        options.cacheDirectory = nil // forced, so no fingerprint is needed: none lands in ~/.cache/dbgen
        var warnings: [Diagnostic] = []
        options.diagnosticHandler = { warnings.append($0) }
        do {
            _ = try DatabaseBuilder.build(options)
            return DBGenOutcome(
                content: try ImportDifferentialHarness.dump(directory.url("dbgen.sqlite")),
                error: nil, warnings: warnings)
        } catch let error as DBGenError {
            return DBGenOutcome(content: nil, error: error, warnings: warnings)
        }
    }

    /// Every file in the directory (recursively) with its bytes, after writing `script` as
    /// `script.txt`: compare with a later ``files()`` to see that nothing was written or changed.
    func files(writing script: String) throws -> [String: Data] {
        try directory.write("script.txt", script)
        return try files()
    }

    /// Every file in the directory (recursively) with its bytes (a directory: empty).
    func files() throws -> [String: Data] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var files: [String: Data] = [:]
        while let name = enumerator?.nextObject() as? String {
            files[name] = FileManager.default.contents(atPath: directory.url(name).path) ?? Data()
        }
        return files
    }
}
