@testable import DBGenKit
import XCTest

/// Errors and warnings print compiler-style, so editors and Xcode jump to them.
final class DiagnosticTests: XCTestCase {
    func testCompilerStyleLines() {
        let located = DBGenError(
            .sql, "no such column: nmae", at: SourceLocation(path: "schema.txt", line: 12, column: 8))
        XCTAssertEqual(located.description, "schema.txt:12:8: error: no such column: nmae")
        XCTAssertEqual(located.diagnostic.severity, .error)
        let lineOnly = Diagnostic(
            .warning, "expected 5 columns but found 3 - filling the rest with NULL",
            at: SourceLocation(path: "food.csv", line: 4))
        XCTAssertEqual(
            lineOnly.description, "food.csv:4: warning: expected 5 columns but found 3 - filling the rest with NULL")
        XCTAssertEqual(DBGenError(.output, "cannot write").description, "dbgen: error: cannot write")
        // A whole file (a database diff cannot read): PATH without a line.
        let wholeFile = DBGenError(.input, "no such file", at: SourceLocation(file: "dir with space/old.sqlite"))
        XCTAssertEqual(wholeFile.description, "dir with space/old.sqlite: error: no such file")
    }

    func testLocatingKeepsAnExistingLocation() {
        let script = SourceLocation(path: "schema.txt", line: 3, column: 1)
        let data = SourceLocation(path: "food.csv", line: 9)
        XCTAssertEqual(DBGenError(.importData, "x").located(at: script).location, script)
        XCTAssertEqual(DBGenError(.importData, "x", at: data).located(at: script).location, data)
    }
}
