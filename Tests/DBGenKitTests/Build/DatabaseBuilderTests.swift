@testable import DBGenKit
import FileSystemKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// The library talks through handlers: warnings and progress reach the caller's closures,
/// errors are typed and located, `strict` turns a warning into an error.
final class DatabaseBuilderTests: XCTestCase {
    private func options(_ directory: TemporaryDirectory) -> BuildOptions {
        var options = BuildOptions(schema: directory.url("schema.txt").path, output: directory.url("out.sqlite").path)
        options.force = true
        options.cacheDirectory = nil // forced, so no fingerprint is needed: none lands in ~/.cache/dbgen
        return options
    }

    func testWarningsAndProgressGoToTheHandlers() throws {
        let directory = try TemporaryDirectory("builder", removedAfter: self)
        try directory.write("schema.txt", "CREATE TABLE t(a, b);\n.import --csv data.csv t\n")
        try directory.write("data.csv", "1,2\n3\n")
        var options = options(directory)
        var warnings: [Diagnostic] = []
        var progress: [ImportProgress] = []
        options.diagnosticHandler = { warnings.append($0) }
        options.progressHandler = { progress.append($0) }
        let summary = try DatabaseBuilder.build(options)
        XCTAssertEqual(warnings.map(\.message), ["expected 2 columns but found 1 - filling the rest with NULL"])
        XCTAssertEqual(warnings.first?.location?.line, 2)
        XCTAssertEqual(summary.warnings, warnings.map(\.description))
        XCTAssertEqual(progress.last?.bytesRead, 6)
        XCTAssertEqual(progress.last?.totalBytes, 6)
        XCTAssertEqual(summary.tables, [BuildSummary.Table(name: "t", rows: 2)])
    }

    func testStrictMakesAWarningAnErrorAndLeavesNoOutput() throws {
        let directory = try TemporaryDirectory("builder", removedAfter: self)
        try directory.write("schema.txt", "CREATE TABLE t(a, b);\n.import --csv data.csv t\n")
        try directory.write("data.csv", "1,2\n3\n")
        var options = options(directory)
        options.strict = true
        XCTAssertThrowsError(try DatabaseBuilder.build(options)) { error in
            let error = error as? DBGenError
            XCTAssertEqual(error?.code, .warningAsError)
            XCTAssertEqual(error?.location?.line, 2)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("out.sqlite").path))
    }

    func testErrorsAreTypedAndLocated() throws {
        let directory = try TemporaryDirectory("builder", removedAfter: self)
        let cases: [(String, DBGenError.Code, Int, Int?)] = [
            ("CREATE TABLE t(a);\nSELECT nosuch FROM t;\n", .sql, 2, 8),
            ("\n.bogus\n", .dotCommand, 2, 1),
            (".shell ls\n", .refused, 1, 1),
            (".import --csv missing.csv t\n", .input, 1, 1),
        ]
        for (script, code, line, column) in cases {
            try directory.write("schema.txt", script)
            XCTAssertThrowsError(try DatabaseBuilder.build(options(directory)), script) { error in
                let error = error as? DBGenError
                XCTAssertEqual(error?.code, code, script)
                XCTAssertEqual(error?.location?.line, line, script)
                XCTAssertEqual(error?.location?.column, column, script)
            }
        }
    }
    func testWhatIsAtAPathIsCheckedBeforeItIsOpened() throws {
        let directory = try TemporaryDirectory("builder paths", removedAfter: self)
        try directory.write("sub dir/file.txt", "x\n")
        let cases: [(script: String, code: DBGenError.Code, message: String)] = [
            (".import --csv 'sub dir' t\n", .input, "cannot open \"sub dir\" for .import: it is a directory"),
            (".import --csv nope.csv t\n", .input, "cannot open \"nope.csv\" for .import: no such file"),
            (".read 'sub dir'\n", .input, "cannot open script \""),
            (".cd 'sub dir/file.txt'\n", .input, "cannot change to directory \"sub dir/file.txt\""),
            (".restore 'sub dir'\n", .input, "cannot open \""),
            (
                "ATTACH 'sub dir' AS s;\n", .refused,
                "refused: ATTACH of \"sub dir\", which does not exist, would create it"
            ),
        ]
        for (script, code, message) in cases {
            try directory.write("schema.txt", script)
            XCTAssertThrowsError(try DatabaseBuilder.build(options(directory)), script) { error in
                let error = error as? DBGenError
                XCTAssertEqual(error?.code, code, script)
                XCTAssertEqual(error?.location?.line, 1, script)
                // Paths are shown as the script names them, here against its absolute directory.
                let shown = error?.message.replacingOccurrences(of: directory.path + "/", with: "")
                XCTAssertTrue(shown?.hasPrefix(message) ?? false, "\(script): \(String(describing: error))")
            }
        }
        // A directory is named where .cd wants one: the build goes on there.
        try directory.write("schema.txt", ".cd 'sub dir'\nCREATE TABLE t(x);\n")
        XCTAssertEqual(try DatabaseBuilder.build(options(directory)).tables.map(\.name), ["t"])
        // The output's directory must exist; the schema too (build and check say it alike).
        var missingDirectory = options(directory)
        missingDirectory.output = directory.url("no such dir/out.sqlite").path
        XCTAssertThrowsError(try DatabaseBuilder.build(missingDirectory)) {
            XCTAssertEqual(($0 as? DBGenError)?.code, .output)
            XCTAssertTrue(($0 as? DBGenError)?.message.hasSuffix("/no such dir\" does not exist") ?? false, "\($0)")
        }
        let missingSchema = directory.url("missing.txt").path
        var noSchema = options(directory)
        noSchema.schema = missingSchema
        XCTAssertThrowsError(try DatabaseBuilder.build(noSchema)) {
            XCTAssertEqual(
                $0 as? DBGenError, DBGenError(.input, "cannot open schema \"\(missingSchema)\": no such file"))
        }
        XCTAssertThrowsError(try SchemaCheck.run(schema: missingSchema, output: directory.url("out.sqlite").path)) {
            XCTAssertEqual(
                $0 as? DBGenError, DBGenError(.input, "cannot open schema \"\(missingSchema)\": no such file"))
        }
    }
}

/// Databases a script attaches to read are inputs; relative names resolve against the script.
final class AttachedInputTests: XCTestCase {
    func testAnAttachedDatabaseIsAnInputResolvedAgainstTheScript() throws {
        let directory = try TemporaryDirectory("attached-input", removedAfter: self)
        try directory.write(
            "data/schema.txt",
            """
            ATTACH 'shared.db' AS shared;
            CREATE TABLE copy AS SELECT * FROM shared.items;
            DETACH shared;

            """)
        let shared = try SQLiteCore.Connection(path: directory.url("data/shared.db").path, create: true)
        try shared.execute("CREATE TABLE items(x); INSERT INTO items VALUES (1), (2);")
        shared.close()
        try directory.backdateContents()
        var options = BuildOptions(
            schema: directory.url("data/schema.txt").path, output: directory.url("out.sqlite").path)
        options.cacheDirectory = directory.url("cache").path // the fingerprint in the test's directory
        let summary = try DatabaseBuilder.build(options)
        XCTAssertEqual(summary.tables, [BuildSummary.Table(name: "copy", rows: 2)])
        XCTAssertTrue(summary.inputs.contains { $0.hasSuffix("data/shared.db") }, "\(summary.inputs)")
        XCTAssertTrue(try DatabaseBuilder.build(options).upToDate)
    }
}

/// An input modified no earlier than the build that read it began (a file written in the
/// build's own timestamp tick, ~4 ms on ext4; here dated in the future, which is the same case)
/// does not let the next build be skipped: a change made later in that tick leaves the same stat
/// data, and a skipped build would ship the old rows without a word.
final class RacyInputTests: XCTestCase {
    func testAChangeKeepingTheStatDataOfARacyInputIsBuilt() throws {
        let directory = try TemporaryDirectory("racy-input", removedAfter: self)
        try directory.write("schema.txt", "CREATE TABLE t(a, b);\n.import --csv data.csv t\n")
        try directory.write("data.csv", "1,apple\n")
        try directory.backdateContents()
        let csv = directory.url("data.csv").path
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 30)], ofItemAtPath: csv)
        var options = BuildOptions(schema: directory.url("schema.txt").path, output: directory.url("out.sqlite").path)
        options.cacheDirectory = directory.url("cache").path
        func rows() throws -> String {
            let connection = try Connection(path: directory.url("out.sqlite").path, readOnly: true)
            defer { connection.close() }
            guard case .text(let text)? = try connection.scalar("SELECT group_concat(b) FROM t") else { return "" }
            return text
        }
        XCTAssertFalse(try DatabaseBuilder.build(options).upToDate)
        XCTAssertEqual(try rows(), "apple")

        // The same size, inode and modification time: only the content differs.
        let stamp = try XCTUnwrap(FileStamp.of(csv))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: csv))
        handle.write(Data("1,APPLE\n".utf8))
        try handle.close()
        setModificationTime(csv, seconds: stamp.mtimeSeconds, nanoseconds: stamp.mtimeNanoseconds)
        XCTAssertEqual(FileStamp.of(csv), stamp, "the stat data must be the same for this test to mean anything")
        XCTAssertFalse(try DatabaseBuilder.build(options).upToDate, "a racily clean input was trusted")
        XCTAssertEqual(try rows(), "APPLE")

        // Dated before the build began, the input is trusted: the build after the next is skipped.
        try directory.backdateContents()
        XCTAssertFalse(try DatabaseBuilder.build(options).upToDate)
        XCTAssertTrue(try DatabaseBuilder.build(options).upToDate)
    }
}
