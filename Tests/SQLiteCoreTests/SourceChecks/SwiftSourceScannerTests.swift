import ShipyardTestSupport
import XCTest

/// The source checks' reading of Swift: a check that cannot fail proves nothing, so its
/// scanner is tested on snippets of each shape it must tell apart.
final class SwiftSourceScannerTests: XCTestCase {
    private let declared: SwiftSourceScanner.Versions = ["macOS": [10, 15], "iOS": [13], "tvOS": [13], "watchOS": [7]]
    private let newer: SwiftSourceScanner.Versions = [
        "macOS": [13, 0], "iOS": [16, 0], "tvOS": [16, 0], "watchOS": [9, 0],
    ]

    private func file(_ text: String) -> SwiftSourceScanner.File {
        SwiftSourceScanner.File(path: "Snippet.swift", code: SwiftSourceScanner.codeOnly(Array(text.utf8)))
    }

    private func guarded(_ text: String) -> [Bool] {
        let file = file(text)
        return SwiftSourceScanner.calls(matching: "sqlite3_error_offset", in: file).map {
            SwiftSourceScanner.isGuarded($0.offset, in: file, required: newer, declared: declared)
        }
    }

    /// A nested package's `.build` (Examples/ after a build) holds other packages' sources;
    /// the checks read the project's own files only.
    func testFilesLeaveOutHiddenDirectories() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for path in [
            "Examples/App/Main.swift", "Examples/.build/checkouts/Other/Sources/X.swift",
            "Examples/App/.hidden/Y.swift",
        ] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("import CSQLite\n".utf8).write(to: url)
        }
        XCTAssertEqual(
            try SwiftSourceScanner.files(under: "Examples", root: root).map(\.path), ["Examples/App/Main.swift"])
    }

    func testCommentsAndStringsAreNotCallsButInterpolationsAre() {
        let snippet = """
            // sqlite3_a(x)
            /* sqlite3_b(y) /* nested */ sqlite3_c() */
            let s = "sqlite3_d(\\(sqlite3_e(1)))" + \"\"\"
                sqlite3_f()
                \"\"\"
            sqlite3_g (2)
            """
        XCTAssertEqual(
            SwiftSourceScanner.calls(matching: "sqlite3_[a-z]+", in: file(snippet)).map(\.name),
            ["sqlite3_e", "sqlite3_g"])
    }

    func testAGuardThatCoversEveryNewerPlatformIsNeeded() {
        XCTAssertEqual(guarded("func f() { let o = sqlite3_error_offset(db) }"), [false])
        XCTAssertEqual(
            guarded(
                """
                func f() -> Int? {
                    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return nil }
                    return Int(sqlite3_error_offset(db))
                }
                """), [true])
        XCTAssertEqual(
            guarded(
                """
                func f() {
                    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) { use(sqlite3_error_offset(db)) } else { use(sqlite3_error_offset(db)) }
                }
                """), [true, false])
        // A guard missing a platform, or a version too old, covers nothing.
        XCTAssertEqual(
            guarded("func f() { if #available(macOS 13, iOS 16, *) { use(sqlite3_error_offset(db)) } }"), [false])
        XCTAssertEqual(
            guarded(
                "func f() { if #available(macOS 12, iOS 16, tvOS 16, watchOS 9, *) { use(sqlite3_error_offset(db)) } }"),
            [false])
        // A guard in another function does not cover this one.
        XCTAssertEqual(
            guarded(
                """
                func f() { guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return } }
                func g() { use(sqlite3_error_offset(db)) }
                """), [false])
        // Nothing is needed for a function no newer than the declared platforms.
        let file = file("func f() { sqlite3_error_offset(db) }")
        XCTAssertTrue(
            SwiftSourceScanner.isGuarded(
                5, in: file, required: ["macOS": [10, 15], "iOS": [12, 0]], declared: declared))
    }

    func testTheManifestsPlatformsAreRead() throws {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        XCTAssertEqual(declared["macOS"], [10, 15])
        XCTAssertEqual(declared["visionOS"], [1])
    }
}
