import Foundation
import ShipyardTestSupport
import XCTest

/// The SQLite layer's boundary, read from the sources: one layer imports the C module, errors
/// are recognised by code, process-wide `sqlite3_config` stays out of library code, every open
/// honours URIs, and an app sees only the app-facing API.
final class SQLiteBoundaryTests: XCTestCase {
    /// The SQLite layer: the only Swift targets that import CSQLite and call `sqlite3_*`.
    static let sqliteLayer = ["Sources/SQLiteCore/", "Sources/SQLiteSession/"]
    /// Test targets that test the C modules themselves, and the one test file that makes this
    /// machine's SQLite behave as other builds (Apple's defaults, no SQLITE_USE_URI) and other
    /// libraries (GRDB's open without SQLITE_OPEN_URI) do.
    static let cModuleTests = [
        "Tests/ShellExtensionsTests/", "Tests/SystemLibraryTests/",
        "Tests/LayeredDatabaseTests/Support/OtherSQLiteBuilds.swift",
    ]

    func testOnlyTheSQLiteLayerImportsCSQLiteOrCallsSQLite() throws {
        var problems: [String] = []
        for root in ["Sources", "Tests", "Examples", "Plugins"] {
            for file in try SwiftSourceScanner.files(under: root) {
                let exempt = Self.sqliteLayer.contains { file.path.hasPrefix($0) }
                if exempt || Self.cModuleTests.contains(where: { file.path.hasPrefix($0) }) { continue }
                for match in SwiftSourceScanner.matches(of: #"\bimport\s+(?:[a-z]+\s+)?(CSQLite)\b"#, in: file) {
                    problems.append("\(file.location(match.offset)): imports CSQLite outside the SQLite layer")
                }
                guard file.path.hasPrefix("Sources/") else { continue }
                for call in SwiftSourceScanner.calls(matching: "sqlite3[A-Za-z0-9_]*", in: file) {
                    problems.append("\(file.location(call.offset)): calls \(call.name) outside the SQLite layer")
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// An SQLite error is recognised by its code (or, for the authorizer, by its own record),
    /// never by its English message, which SQLite may reword between versions.
    func testNoErrorIsRecognisedByItsMessageText() throws {
        var problems: [String] = []
        for target in [
            "SQLiteCore", "SQLiteSession", "LayeredDatabase", "DBGenKit", "DBGenCommandLine", "dbgen",
            "dbgen-plugin-tool",
        ] {
            for file in try SwiftSourceScanner.files(under: "Sources/" + target) {
                let pattern = #"([A-Za-z]*[Mm]essage\s*(?:\.\s*(?:hasPrefix|hasSuffix|contains|starts|range)\b|==|!=))"#
                for match in SwiftSourceScanner.matches(of: pattern, in: file) {
                    problems.append("\(file.location(match.offset)): `\(match.name)` matches an error's text")
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// `sqlite3_config` is process-wide and returns MISUSE once anything in the process opened a
    /// database (in an app, another framework has): no library calls it. dbgen's main turns
    /// memory statistics off; the URI switch is a documented best effort for GRDB users.
    func testProcessWideSettingsAreLeftToExecutables() throws {
        var problems: [String] = []
        for file in try SwiftSourceScanner.files(under: "Sources") {
            let calls = SwiftSourceScanner.matches(
                of:
                    #"\b(disableMemoryStatistics|enableURIFilenames|setURIFilenames|shipyard_sqlite3_disable_memory_statistics|shipyard_sqlite3_set_uri_filenames)\s*\("#,
                in: file)
            for call in calls {
                let inSQLiteCore = file.path == "Sources/SQLiteCore/SQLiteLibrary.swift"
                let fromMain =
                    ["Sources/dbgen/", "Sources/dbgen-plugin-tool/"].contains { file.path.hasPrefix($0) }
                    && call.name == "disableMemoryStatistics"
                if !inSQLiteCore && !fromMain {
                    problems.append(
                        "\(file.location(call.offset)): \(call.name) (sqlite3_config) called from library code")
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
    }

    /// Every open passes `SQLITE_OPEN_URI`, so URI filenames never depend on `sqlite3_config`
    /// or on the build's `SQLITE_USE_URI` (URIOpenFlagTests runs one with both off).
    func testEveryOpenPassesTheURIFlag() throws {
        var opens = 0
        for file in try SwiftSourceScanner.files(under: "Sources") {
            for call in SwiftSourceScanner.calls(matching: "sqlite3_open[A-Za-z0-9_]*", in: file) {
                opens += 1
                XCTAssertEqual(
                    call.name, "sqlite3_open_v2", "\(file.location(call.offset)): only sqlite3_open_v2 takes flags")
                let text = String(decoding: file.code, as: UTF8.self)
                let function = text.utf8.prefix(call.offset)
                let start =
                    String(decoding: function, as: UTF8.self).range(of: "init(", options: .backwards)
                    ?? String(decoding: function, as: UTF8.self).range(of: "func ", options: .backwards)
                let body = String(String(decoding: function, as: UTF8.self)[(start?.lowerBound ?? text.startIndex)...])
                XCTAssertTrue(
                    body.contains("SQLITE_OPEN_URI"), "\(file.location(call.offset)): opens without SQLITE_OPEN_URI")
            }
        }
        XCTAssertEqual(opens, 1, "one place opens connections: Connection.init(uri:)")
    }

    /// What an app sees of SQLiteCore (re-exported by LayeredDatabase): the types its API takes
    /// and returns. A new `public` declaration fails here until it is meant for apps; what only
    /// the tools use is `package`.
    func testSQLiteCoresPublicSurfaceIsTheAppFacingAPI() throws {
        var declarations = Set<String>()
        for file in try SwiftSourceScanner.files(under: "Sources/SQLiteCore") {
            let pattern =
                #"\bpublic\s+(?:(?:static|final|convenience|override|private\(set\))\s+)*((?:func|var|let|init|class|struct|enum|subscript)\s*[(]?\s*[A-Za-z_~=][A-Za-z0-9_=]*)"#
            for match in SwiftSourceScanner.matches(of: pattern, in: file) {
                let words = match.name.replacingOccurrences(of: "(", with: " ").split(separator: " ")
                let declaration = words.joined(separator: " ")
                if !declaration.contains("SQLITE_") { declarations.insert(declaration) }
            }
        }
        XCTAssertEqual(
            declarations.sorted(),
            [
                "class Connection", "class Statement", "enum DatabaseValue", "enum SQLiteLibrary", "struct ResultCode",
                "struct Row", "struct SQLiteError",
                // Connection
                "func close", "func execute", "func forEachRow", "func inTransaction", "func prepare", "func query",
                "func scalar", "func userVersion", "init borrowing", "init path", "var isInTransaction",
                // Statement
                "func bind", "func clearBindings", "func column", "func columnName", "func reset", "func row",
                "func step",
                "var columnCount", "var parameterCount",
                // Row, DatabaseValue
                "init columnNames", "init floatLiteral", "init integerLiteral", "init nilLiteral", "init stringLiteral",
                "let columnNames", "let values", "subscript index", "subscript name", "var shellBytes", "var shellText",
                // SQLiteError, ResultCode
                "func ~=", "init rawValue", "let extendedResultCode", "let message", "let offset", "let rawValue",
                "let sql",
                "var description", "var isPrimary", "var isReadOnly", "var primaryResultCode", "var resultCode",
                // SQLiteLibrary
                "var sourceID", "var version",
            ].sorted())
    }
}
