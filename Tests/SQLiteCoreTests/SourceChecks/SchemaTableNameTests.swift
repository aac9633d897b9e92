import Foundation
import ShipyardTestSupport
import XCTest

/// The schema table has two names: `sqlite_schema` only since SQLite 3.33, `sqlite_master` in
/// every version. Apple's platforms at the package's floor run older SQLite (iOS 13: 3.28, iOS
/// 14: 3.32, macOS 10.15: 3.28, macOS 11: 3.32), so a library opening a database there with
/// `SELECT … FROM sqlite_schema` fails, and a patch that says `ANALYZE sqlite_schema` does not
/// install. Read from the sources' raw text, SQL in string literals included.
final class SchemaTableNameTests: XCTestCase {
    func testNoSourceNamesTheSchemaTableSqliteSchema() throws {
        var problems: [String] = []
        let root = SwiftSourceScanner.packageRoot
        for directory in ["Sources", "Examples/Sources"] {
            let base = root.appendingPathComponent(directory)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("sqlite_schema") {
                    problems.append(
                        "\(directory)/\(relative):\(index + 1): names sqlite_schema (SQLite 3.33+): \(line)")
                }
            }
        }
        XCTAssertEqual(problems, [], "use sqlite_master, which every SQLite an app meets knows")
    }
}
