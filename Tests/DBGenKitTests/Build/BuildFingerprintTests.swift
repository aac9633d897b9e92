@testable import DBGenKit
import FileSystemKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// The up-to-date check compares stat data only; any change of an input, the output, dbgen's
/// version or the options makes the fingerprint stale.
final class BuildFingerprintTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("fingerprint", removedAfter: self).url
    }

    private func fingerprint(input: String, output: String, options: [String] = []) -> BuildFingerprint {
        BuildFingerprint(dbgenVersion: DBGenKit.version, sqliteVersion: SQLiteLibrary.sourceID,
                         options: options, schema: input, outputPath: output,
                         inputs: [InputFile(path: input, displayPath: "in.txt", stamp: FileStamp.of(input))],
                         output: FileStamp.of(output),
                         summary: BuildSummary(output: "out", upToDate: false, seconds: 0, tables: [], warnings: [], inputs: []))
    }

    func testStaleWhenAnythingChanges() throws {
        let input = directory.appendingPathComponent("in.txt").path
        let output = directory.appendingPathComponent("out.sqlite").path
        try Data("a".utf8).write(to: URL(fileURLWithPath: input))
        try Data("db".utf8).write(to: URL(fileURLWithPath: output))
        let stored = fingerprint(input: input, output: output)
        let record = directory.appendingPathComponent("cache/out.dbgen-fingerprint").path
        try stored.save(to: record)
        let loaded = try XCTUnwrap(BuildFingerprint.load(from: record))
        XCTAssertEqual(loaded, stored)
        XCTAssertFalse(loaded.isCurrent(schema: input, outputPath: output + "-elsewhere", options: []), "recorded for another output")
        XCTAssertTrue(loaded.isCurrent(schema: input, outputPath: output, options: []))
        XCTAssertFalse(loaded.isCurrent(schema: input, outputPath: output, options: ["strict"]))
        XCTAssertFalse(loaded.isCurrent(schema: output, outputPath: output, options: []))

        // Same size, new mtime: stale.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-100)], ofItemAtPath: input)
        XCTAssertFalse(loaded.isCurrent(schema: input, outputPath: output, options: []))

        // Output replaced: stale.
        let fresh = fingerprint(input: input, output: output)
        XCTAssertTrue(fresh.isCurrent(schema: input, outputPath: output, options: []))
        try Data("db".utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        XCTAssertFalse(fresh.isCurrent(schema: input, outputPath: output, options: []))

        // Input gone: stale.
        let again = fingerprint(input: input, output: output)
        try FileManager.default.removeItem(atPath: input)
        XCTAssertFalse(again.isCurrent(schema: input, outputPath: output, options: []))
    }
}

/// The record is kept beside the depfile or in the cache directory, never beside the output.
final class FingerprintStoreTests: XCTestCase {
    func testRecordIsNeverInTheOutputsDirectory() {
        let withDepfile = FingerprintStore.path(forOutput: "/app/Resources/food.sqlite", depfile: "/build/food.d", cacheDirectory: "/cache")
        XCTAssertEqual(withDepfile, "/build/.food.d.dbgen-fingerprint")
        let cached = FingerprintStore.path(forOutput: "/app/Resources/food.sqlite", depfile: nil, cacheDirectory: "/cache")
        XCTAssertTrue(cached?.hasPrefix("/cache/food.sqlite-") ?? false, "\(cached ?? "nil")")
        XCTAssertNotEqual(cached, FingerprintStore.path(forOutput: "/other/Resources/food.sqlite", depfile: nil, cacheDirectory: "/cache"))
        XCTAssertNil(FingerprintStore.path(forOutput: "/app/Resources/food.sqlite", depfile: nil, cacheDirectory: nil))
    }

    func testDefaultCacheDirectoryFollowsTheEnvironment() {
        XCTAssertEqual(BuildOptions.defaultCacheDirectory(environment: ["DBGEN_CACHE_DIR": "/c"]), "/c")
        XCTAssertEqual(BuildOptions.defaultCacheDirectory(environment: [:]), BuildOptions.systemCacheDirectory)
        XCTAssertTrue(BuildOptions.systemCacheDirectory?.hasSuffix("/dbgen") ?? false)
        XCTAssertEqual(BuildOptions(schema: "s.txt", output: "o.sqlite").cacheDirectory, BuildOptions.systemCacheDirectory)
    }
}

final class DepfileTests: XCTestCase {
    func testEscapesSpacesHashAndDollar() {
        XCTAssertEqual(Depfile.contents(target: "out db.sqlite", inputs: ["a b.txt", "c#$.csv"]),
                       "out\\ db.sqlite: a\\ b.txt \\\n  c\\#$$.csv\n")
    }
}

final class PathResolutionTests: XCTestCase {
    func testDisplayPathsAreRelativeToTheNamingScriptAndNormalized() {
        XCTAssertEqual(PathResolution.display("inner.txt", inDisplayDirectory: ""), "inner.txt")
        XCTAssertEqual(PathResolution.display("../data/x.csv", inDisplayDirectory: "schema/sub"), "schema/data/x.csv")
        XCTAssertEqual(PathResolution.display("./a.csv", inDisplayDirectory: "s"), "s/a.csv")
        XCTAssertEqual(PathResolution.display("../../up.csv", inDisplayDirectory: "s"), "../up.csv")
        XCTAssertEqual(PathResolution.display("/abs/x.csv", inDisplayDirectory: "s"), "/abs/x.csv")
    }
}
