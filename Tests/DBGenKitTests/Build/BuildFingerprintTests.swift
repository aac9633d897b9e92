@testable import DBGenKit
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
        try stored.save()
        let loaded = try XCTUnwrap(BuildFingerprint.load(for: output))
        XCTAssertEqual(loaded, stored)
        XCTAssertTrue(loaded.isCurrent(schema: input, options: []))
        XCTAssertFalse(loaded.isCurrent(schema: input, options: ["strict"]))
        XCTAssertFalse(loaded.isCurrent(schema: output, options: []))

        // Same size, new mtime: stale.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-100)], ofItemAtPath: input)
        XCTAssertFalse(loaded.isCurrent(schema: input, options: []))

        // Output replaced: stale.
        let fresh = fingerprint(input: input, output: output)
        XCTAssertTrue(fresh.isCurrent(schema: input, options: []))
        try Data("db".utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        XCTAssertFalse(fresh.isCurrent(schema: input, options: []))

        // Input gone: stale.
        let again = fingerprint(input: input, output: output)
        try FileManager.default.removeItem(atPath: input)
        XCTAssertFalse(again.isCurrent(schema: input, options: []))
    }
}
