@testable import DBGenKit
import SQLiteCore
import XCTest

/// Every honoured dot-command of the catalogue reaches its own parser: each has a sample here
/// (a new honoured entry fails this test until it has one), and the sample, written in full
/// and abbreviated to the shortest prefix that names the command, parses to what it does.
final class DotCommandCatalogTests: XCTestCase {
    private let samples: [String: (arguments: [String], command: DotCommand)] = [
        "bail": (["on"], .outputOnly("bail")),
        "cd": (["dir"], .changeDirectory("dir")),
        "dbconfig": (["enable_fkey", "off"], .databaseOption(DatabaseOption.named("enable_fkey")!, enabled: false)),
        "exit": (["0"], .quit),
        "import": (
            ["f.csv", "t"],
            .importFile(
                ImportArguments(
                    file: "f.csv", table: "t", schema: nil, skip: 0,
                    forcedQuoting: nil))
        ),
        "limit": (["length", "5"], .limit(RuntimeLimit.all[0], value: 5)),
        "mode": (["csv"], .mode(["csv"])),
        "parameter": (["clear"], .parameter(.clear)),
        "quit": ([], .quit),
        "read": (["x.sql"], .read("x.sql")),
        "restore": (["x.db"], .restore(schema: "main", file: "x.db")),
        "separator": (["|", ";"], .separator(column: [0x7C], row: [0x3B])),
    ]

    func testEveryHonouredCommandHasASampleThatParsesToItsOwnCommand() throws {
        var honoured: [String] = []
        for entry in DotCommandCatalog.entries {
            guard case .honoured = entry.treatment else { continue }
            honoured.append(entry.name)
            let sample = try XCTUnwrap(samples[entry.name], "no sample for .\(entry.name)")
            let shortest = try XCTUnwrap(
                (entry.minimumAbbreviation...entry.name.count).lazy
                    .map { String(entry.name.prefix($0)) }
                    .first { DotCommandCatalog.entry(named: $0)?.name == entry.name })
            for name in [entry.name, shortest] {
                XCTAssertEqual(try DotCommandParser.parse([name] + sample.arguments), sample.command, name)
            }
        }
        XCTAssertEqual(Set(honoured), Set(samples.keys))
    }

    /// `.separator`'s bytes come from the line's tokens once: quotes and escapes as the
    /// tokenizer resolves them, bytes that are not UTF-8 kept.
    func testSeparatorCarriesTheTokenizedBytes() throws {
        let line = #".separator '\t' "\377""#
        let command = try DotCommandParser.parse(DotCommandTokenizer.tokenizeBytes(Array(line.utf8)))
        XCTAssertEqual(command, .separator(column: Array(#"\t"#.utf8), row: [0xFF]))
        XCTAssertThrowsError(try DotCommandParser.parse(["separator"]))
        XCTAssertThrowsError(try DotCommandParser.parse(["separator", "a", "b", "c"]))
    }
}
