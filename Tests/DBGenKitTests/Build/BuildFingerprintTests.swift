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

    /// A record of a build of `output` from `input` that began at `started` (default: now, as
    /// a file written now shows it).
    private func fingerprint(
        input: String, output: String, options: [String] = [],
        started: FileStamp? = nil
    ) throws -> BuildFingerprint {
        let marker = directory.appendingPathComponent("started")
        try Data().write(to: marker)
        return BuildFingerprint(
            dbgenVersion: DBGenKit.version, sqliteVersion: SQLiteLibrary.sourceID,
            options: options, schema: input, outputPath: output,
            inputs: [InputFile(path: input, displayPath: "in.txt", stamp: FileStamp.of(input))],
            output: FileStamp.of(output), started: started ?? FileStamp.of(marker.path),
            summary: BuildSummary(output: "out", upToDate: false, seconds: 0, tables: [], warnings: [], inputs: []))
    }

    func testStaleWhenAnythingChanges() throws {
        let input = directory.appendingPathComponent("in.txt").path
        let output = directory.appendingPathComponent("out.sqlite").path
        try Data("a".utf8).write(to: URL(fileURLWithPath: input))
        try Data("db".utf8).write(to: URL(fileURLWithPath: output))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-200)], ofItemAtPath: input)
        let stored = try fingerprint(input: input, output: output)
        let record = directory.appendingPathComponent("cache/out.dbgen-fingerprint").path
        try stored.save(to: record)
        let loaded = try XCTUnwrap(BuildFingerprint.load(from: record))
        XCTAssertEqual(loaded, stored)
        XCTAssertFalse(
            loaded.isCurrent(schema: input, outputPath: output + "-elsewhere", options: []),
            "recorded for another output")
        XCTAssertTrue(loaded.isCurrent(schema: input, outputPath: output, options: []))
        XCTAssertFalse(loaded.isCurrent(schema: input, outputPath: output, options: ["strict"]))
        XCTAssertFalse(loaded.isCurrent(schema: output, outputPath: output, options: []))

        // Same size, new mtime: stale.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-100)], ofItemAtPath: input)
        XCTAssertFalse(loaded.isCurrent(schema: input, outputPath: output, options: []))

        // Output replaced: stale.
        let fresh = try fingerprint(input: input, output: output)
        XCTAssertTrue(fresh.isCurrent(schema: input, outputPath: output, options: []))
        try Data("db".utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        XCTAssertFalse(fresh.isCurrent(schema: input, outputPath: output, options: []))

        // Input gone: stale.
        let again = try fingerprint(input: input, output: output)
        try FileManager.default.removeItem(atPath: input)
        XCTAssertFalse(again.isCurrent(schema: input, outputPath: output, options: []))
    }
}

extension BuildFingerprintTests {
    /// An input modified no earlier than the build began (its stat data taken in the same
    /// timestamp tick as a later change could be) is not trusted: git's "racily clean" rule.
    /// A file system keeping whole seconds (no nanoseconds) is compared by the second.
    func testRacilyCleanInputsAreNotCurrent() throws {
        let input = directory.appendingPathComponent("in.txt").path
        let output = directory.appendingPathComponent("out.sqlite").path
        try Data("a".utf8).write(to: URL(fileURLWithPath: input))
        try Data("db".utf8).write(to: URL(fileURLWithPath: output))
        let started = FileStamp(size: 0, mtimeSeconds: 1_700_000_000, mtimeNanoseconds: 500, inode: 1, device: 1)
        func current(inputModified seconds: Int64, _ nanoseconds: Int64) throws -> Bool {
            setModificationTime(input, seconds: seconds, nanoseconds: nanoseconds)
            return try fingerprint(input: input, output: output, started: started)
                .isCurrent(schema: input, outputPath: output, options: [])
        }
        XCTAssertFalse(try current(inputModified: 1_700_000_000, 500), "modified as the build began")
        XCTAssertFalse(try current(inputModified: 1_700_000_100, 0), "modified after it began")
        XCTAssertTrue(try current(inputModified: 1_700_000_000, 499), "modified before")
        XCTAssertFalse(try current(inputModified: 1_700_000_000, 0), "whole seconds, the same second")
        XCTAssertTrue(try current(inputModified: 1_699_999_999, 0), "whole seconds, the second before")
        var unknown = try fingerprint(input: input, output: output, started: started)
        XCTAssertTrue(unknown.isCurrent(schema: input, outputPath: output, options: []))
        unknown.started = nil
        XCTAssertFalse(unknown.isCurrent(schema: input, outputPath: output, options: []), "no start recorded")
    }
}

/// The record is kept beside the depfile or in the cache directory, never beside the output.
final class FingerprintStoreTests: XCTestCase {
    func testRecordIsNeverInTheOutputsDirectory() {
        let withDepfile = FingerprintStore.path(
            forOutput: "/app/Resources/food.sqlite", depfile: "/build/food.d", cacheDirectory: "/cache")
        XCTAssertEqual(withDepfile, "/build/.food.d.dbgen-fingerprint")
        let cached = FingerprintStore.path(
            forOutput: "/app/Resources/food.sqlite", depfile: nil, cacheDirectory: "/cache")
        XCTAssertTrue(cached?.hasPrefix("/cache/food.sqlite-") ?? false, "\(cached ?? "nil")")
        XCTAssertNotEqual(
            cached,
            FingerprintStore.path(forOutput: "/other/Resources/food.sqlite", depfile: nil, cacheDirectory: "/cache"))
        XCTAssertNil(FingerprintStore.path(forOutput: "/app/Resources/food.sqlite", depfile: nil, cacheDirectory: nil))
    }

    func testDefaultCacheDirectoryFollowsTheEnvironment() {
        XCTAssertEqual(BuildOptions.defaultCacheDirectory(environment: ["DBGEN_CACHE_DIR": "/c"]), "/c")
        XCTAssertEqual(BuildOptions.defaultCacheDirectory(environment: [:]), BuildOptions.systemCacheDirectory)
        XCTAssertTrue(BuildOptions.systemCacheDirectory?.hasSuffix("/dbgen") ?? false)
        XCTAssertEqual(
            BuildOptions(schema: "s.txt", output: "o.sqlite").cacheDirectory, BuildOptions.systemCacheDirectory)
    }
}

final class DepfileTests: XCTestCase {
    func testEscapesSpacesHashAndDollar() {
        XCTAssertEqual(
            Depfile.contents(target: "out db.sqlite", inputs: ["a b.txt", "c#$.csv"]),
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
