@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// dbgen diff's record comparison (``RecordMerge``: record bytes from the files' pages, SQLite
/// for the rows that differ) against the reference path that reads every row through SQLite:
/// on seeded pairs both give the same patch and summary, byte for byte, wherever the walk hands
/// over to SQLite; the patch applied by sqlite3 to a copy of OLD leaves nothing for sqldiff.
final class RecordMergeDifferentialTests: XCTestCase {
    /// Compares the two paths on OLD and NEW and returns what the record path read.
    @discardableResult
    private func assertSamePatch(
        _ old: String, _ new: String, in dir: TemporaryDirectory, table: String? = nil, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> RecordReading {
        let reference = try DatabaseDiff(oldPath: old, newPath: new, table: table)
        reference.reading.mode = .sqliteOnly
        let expected = try reference.patch(), expectedSummary = try reference.summary()
        XCTAssertEqual(reference.reading.tablesWalked, 0, label, file: file, line: line)
        let diff = try DatabaseDiff(oldPath: old, newPath: new, table: table)
        XCTAssertEqual(try diff.patch(), expected, "\(label): patch", file: file, line: line)
        XCTAssertEqual(try diff.summary(), expectedSummary, "\(label): summary", file: file, line: line)
        for stop in [0, 1, 5, 90, 400] {
            let handedOver = try DatabaseDiff(oldPath: old, newPath: new, table: table)
            handedOver.reading.mode = .recordsStoppingAfter(stop)
            XCTAssertEqual(
                try handedOver.patch(), expected, "\(label): handed over after \(stop)", file: file, line: line)
            XCTAssertEqual(
                try handedOver.summary(), expectedSummary, "\(label): summary handed over after \(stop)", file: file,
                line: line)
        }
        if table == nil {
            let patched = try DiffTestSupport.applied(expected, to: old, copy: dir.url("patched.sqlite").path)
            if try encoding(old) == encoding(new) {
                XCTAssertEqual(
                    try Oracle.sqldiff.output([patched, new]), "", "\(label): sqldiff after the patch", file: file,
                    line: line)
            } else {
                // sqldiff attaches NEW, which SQLite allows in one encoding only (and the dump
                // shows text in its encoding's bytes): dbgen's reference path is the judge.
                let again = try DatabaseDiff(oldPath: patched, newPath: new)
                again.reading.mode = .sqliteOnly
                XCTAssertEqual(try again.patch(), "", "\(label): patched OLD vs NEW", file: file, line: line)
            }
        }
        return diff.reading
    }

    private func encoding(_ path: String) throws -> String {
        try Oracle.sqlite3Script(path, "PRAGMA encoding;")
    }

    func testScatteredChangesGiveTheSameBytesAsSQLiteAlone() throws {
        for seed: UInt64 in 1...4 {
            let dir = try TemporaryDirectory("record merge", removedAfter: self)
            let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
            try RecordPairGenerator(seed: seed).makePair(old: old, new: new, change: .scattered)
            let reading = try assertSamePatch(old, new, in: dir, "seed \(seed)")
            XCTAssertEqual(reading.tablesNotWalked, 0, "seed \(seed)")
            XCTAssertGreaterThan(reading.tablesWalked, 0, "seed \(seed)")
            XCTAssertGreaterThan(reading.rowsSameBytes, reading.rowsLookedUp, "seed \(seed): most rows by their bytes")
            try assertSamePatch(old, new, in: dir, table: "big", "seed \(seed), --table big")
            try assertSamePatch(old, new, in: dir, table: "widened", "seed \(seed), --table widened")
        }
    }

    func testATableThatDiffersInOnePageIsReadOnThatPageOnly() throws {
        let dir = try TemporaryDirectory("record merge one page", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
        try RecordPairGenerator(seed: 9, rows: 4000).makePair(old: old, new: new, change: .oneRow)
        let reading = try assertSamePatch(old, new, in: dir, "one row")
        XCTAssertEqual(
            reading.rowsLookedUp, 2,
            "the changed row, in the patch and in the summary (overflowing rows by their pages)")
        XCTAssertGreaterThan(reading.leavesSkipped, 100)
        XCTAssertEqual(try DatabaseDiff(oldPath: old, newPath: new).summary().contains("big: 1 changes"), true)
    }

    func testATableWhoseRowsMostlyDifferIsHandedToSQLite() throws {
        let dir = try TemporaryDirectory("record merge every row", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
        try RecordPairGenerator(seed: 12, rows: 3000).makePair(old: old, new: new, change: .everyRow)
        let reading = try assertSamePatch(old, new, in: dir, "every row")
        XCTAssertEqual(reading.handOvers, 2, "big, in the patch and in the summary")
        XCTAssertLessThan(reading.rowsLookedUp, 2 * 1100, "a window of rows, then SQLite alone")
    }

    func testFilesOfOtherShapesGiveTheSameBytes() throws {
        let shapes: [(String, RecordPairGenerator.Shape, walked: Bool)] = [
            ("page sizes 1024 and 4096", .init(oldPageSize: 1024, newPageSize: 4096), true),
            ("page size 65536", .init(oldPageSize: 65536, newPageSize: 65536), true),
            ("UTF-16le in both", .init(oldEncoding: "UTF-16le", newEncoding: "UTF-16le"), true),
            ("UTF-8 and UTF-16be", .init(oldEncoding: "UTF-8", newEncoding: "UTF-16be"), false),
            ("NEW in WAL mode", .init(newInWAL: true), false),
        ]
        for (seed, (label, shape, walked)) in shapes.enumerated() {
            let dir = try TemporaryDirectory("record merge shapes", removedAfter: self)
            let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
            try RecordPairGenerator(seed: UInt64(20 + seed), shape: shape, rows: 600)
                .makePair(old: old, new: new, change: .scattered)
            let reading = try assertSamePatch(old, new, in: dir, label)
            XCTAssertEqual(reading.tablesWalked > 0, walked, label)
            XCTAssertEqual(reading.tablesNotWalked > 0, !walked, label)
        }
    }

    func testDiffPairGeneratorPairsGiveTheSameBytes() throws {
        for seed: UInt64 in 30...35 {
            let dir = try TemporaryDirectory("record merge pairs", removedAfter: self)
            let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
            var generator = DiffPairGenerator(seed: seed, values: .edgeCases)
            try generator.makePair(old: old, new: new, rows: 200, schemaChanges: seed % 2 == 0)
            try assertSamePatch(old, new, in: dir, "seed \(seed)")
        }
    }
}
