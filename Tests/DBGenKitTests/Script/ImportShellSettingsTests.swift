@testable import DBGenKit
import Foundation
import ShipyardTestSupport
import XCTest

/// `.mode` and `.separator` state compared with what sqlite3's `.show` reports after the same
/// commands, and the import format (or the shell's refusal) derived from it.
final class ImportShellSettingsTests: XCTestCase {
    /// One step: `.mode ARGS` or `.separator COL [ROW]`.
    private enum Step {
        case mode([String])
        case separator(String, String?)
    }

    /// The mode and separators sqlite3 reports after `steps`, as `.show` prints them.
    private func shellState(after steps: [Step]) throws -> [String] {
        var script = ""
        for step in steps {
            switch step {
            case .mode(let arguments): script += ".mode " + arguments.joined(separator: " ") + "\n"
            case .separator(let column, let row):
                script += ".separator \"\(column)\"" + (row.map { " \"\($0)\"" } ?? "") + "\n"
            }
        }
        script += ".show\n"
        let output = try Oracle.sqlite3.run([":memory:"], stdin: script).stdoutText
        return output.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("mode:") || $0.hasPrefix("colseparator:") || $0.hasPrefix("rowseparator:") }
            // Column-style modes add their wrap options: not part of this state.
            .map { $0.hasPrefix("mode:") ? String($0.prefix { $0 != "-" }).trimmingCharacters(in: .whitespaces) : $0 }
    }

    /// The shell's `output_c_string` rendering.
    private func cString(_ bytes: [UInt8]) -> String {
        var text = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\t"): text += "\\t"
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case 0x20...0x7E: text += String(UnicodeScalar(byte))
            default: text += "\\" + String(byte, radix: 8).leftPadded(to: 3)
            }
        }
        return text + "\""
    }

    private func ours(after steps: [Step]) -> [String] {
        var settings = ShellOutputSettings()
        for step in steps {
            switch step {
            case .mode(let arguments): try? settings.setMode(arguments: arguments)
            case .separator(let column, let row): settings.setSeparator(column: column, row: row)
            }
        }
        return [
            "mode: \(settings.mode.rawValue)", "colseparator: \(cString(settings.columnSeparator))",
            "rowseparator: \(cString(settings.rowSeparator))",
        ]
    }

    private func assertSameState(_ steps: [Step], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(ours(after: steps), try shellState(after: steps), "\(steps)", file: file, line: line)
    }

    func testEveryModeSetsTheSeparatorsTheShellSets() throws {
        for mode in [
            "csv", "list", "tabs", "ascii", "tcl", "quote", "line", "lines", "column", "html", "insert",
            "markdown", "table", "box", "qbox", "json", "count", "off", "c", "t", "ta", "l", "li", "q", "a",
        ] {
            // After a custom separator, to see which ones each mode resets.
            try assertSameState([.separator(";", "!"), .mode([mode])])
        }
    }

    func testModeWithoutArgumentReappliesTheCurrentMode() throws {
        try assertSameState([.mode(["csv"]), .separator("|", nil), .mode([])])
        try assertSameState([.mode(["tabs"]), .separator(";", "x"), .mode([])])
        try assertSameState([.mode(["box", "--wrap", "30", "--quote"]), .separator(";", "x")])
    }

    func testUnknownModeLeavesTheStateAlone() throws {
        try assertSameState([.mode(["csv"]), .mode(["nonsense"])])
        var settings = ShellOutputSettings()
        XCTAssertThrowsError(try settings.setMode("nonsense")) { error in
            XCTAssertEqual(
                (error as? DBGenError)?.message,
                "mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl"
            )
        }
    }

    func testSeparatorOrderAndEscapes() throws {
        try assertSameState([.separator("|", nil), .mode(["csv"])])
        try assertSameState([.mode(["csv"]), .separator("|", nil)])
        try assertSameState([.separator("\\t", "\\r\\n")])
        try assertSameState([.separator("\\037", "\\036")])
        try assertSameState([.separator("\\x", "\\101\\0B")])
        try assertSameState([.separator("\\\\", "\\'")])
        try assertSameState([.separator("abcdefghijklmnopqrstuvwxyz", "é")])
    }

    func testImportFormatFollowsTheShell() throws {
        var settings = ShellOutputSettings()
        XCTAssertEqual(
            try settings.importFormat(),
            ImportFormat(
                quoting: .csv, columnSeparator: UInt8(ascii: "|"),
                rowSeparator: 10, emptyFirstFieldEndsRecord: false))
        try settings.setMode("csv")
        XCTAssertEqual(try settings.importFormat().rowSeparator, 10)
        try settings.setMode("ascii")
        XCTAssertEqual(try settings.importFormat(), ImportFormat.ascii)
        XCTAssertEqual(
            try settings.formatForImport(forcing: .csv),
            ImportFormat(quoting: .csv, columnSeparator: 44, rowSeparator: 10, emptyFirstFieldEndsRecord: true))
    }

    func testSeparatorsTheShellRefusesForImport() throws {
        func message(_ steps: [Step]) -> String? {
            var settings = ShellOutputSettings()
            for step in steps {
                switch step {
                case .mode(let arguments): try? settings.setMode(arguments: arguments)
                case .separator(let column, let row): settings.setSeparator(column: column, row: row)
                }
            }
            do {
                _ = try settings.importFormat()
                return nil
            } catch {
                return (error as? DBGenError)?.message
            }
        }
        XCTAssertEqual(message([.separator("ab", nil)]), "multi-character column separators not allowed for import")
        XCTAssertEqual(message([.separator("", nil)]), "non-null column separator required for import")
        XCTAssertEqual(message([.separator(",", "")]), "non-null row separator required for import")
        XCTAssertEqual(message([.separator(",", "\\r\\n")]), "multi-character row separators not allowed for import")
        XCTAssertEqual(
            message([.mode(["tabs"]), .mode(["csv"]), .mode(["tabs"])]),
            "multi-character row separators not allowed for import")
        XCTAssertNil(message([.mode(["csv"]), .separator(";", "\\r\\n")]))
        // Those messages are the shell's own.
        let directory = try TemporaryDirectory("shell-settings", removedAfter: self).url
        try Data("1\n".utf8).write(to: directory.appendingPathComponent("d.csv"))
        let outcome = try ImportDifferentialHarness.runSQLite3(
            ImportCase(
                "refusals", setupSQL: "CREATE TABLE t(a);", files: ["d.csv": Array("1\n".utf8)],
                commands: [
                    .separator("ab", nil), .import(file: "d.csv", table: "t", options: []),
                    .separator("", nil), .import(file: "d.csv", table: "t", options: []),
                    .separator(",", ""), .import(file: "d.csv", table: "t", options: []),
                    .separator(",", "\\r\\n"), .import(file: "d.csv", table: "t", options: []),
                ]), in: directory)
        XCTAssertEqual(
            outcome.messages,
            [
                "Error: multi-character column separators not allowed for import",
                "Error: non-null column separator required for import",
                "Error: non-null row separator required for import",
                "Error: multi-character row separators not allowed for import",
            ])
    }

    func testCSVImportTurnsCRLFIntoLFForGood() throws {
        var settings = ShellOutputSettings()
        try settings.setMode("csv")
        _ = try settings.formatForImport(forcing: nil)
        try settings.setMode("tabs")
        XCTAssertEqual(try settings.importFormat().rowSeparator, 10)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
