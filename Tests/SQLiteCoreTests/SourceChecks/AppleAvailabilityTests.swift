import Foundation
import ShipyardTestSupport
import XCTest

/// Everything the SQLite layer calls exists on the Apple platforms `Package.swift` declares, by
/// construction, since no Mac builds here: each `sqlite3_*` call is checked against
/// ``AppleSQLiteAvailability`` (Apple's own header, as data), and every call newer than the
/// declared platforms must sit under an `#available` guard. On Linux `#available` is always
/// true, so only this reading catches a missing guard before a Mac build does.
final class AppleAvailabilityTests: XCTestCase {
    /// What an app links (LayeredDatabase, the SQLite layer and the file-system layer under it,
    /// with CSQLite's shim): only functions Apple's sqlite3.h declares.
    static let appLinked = ["Sources/SQLiteCore", "Sources/LayeredDatabase", "Sources/FileSystemKit"]
    /// The rest of the SQLite layer, linked by the tools only.
    static let toolsOnly = ["Sources/SQLiteSession"]

    func testEverySQLiteCallIsDeclaredAndAvailableOnTheDeclaredPlatforms() throws {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        XCTAssertEqual(
            declared, ["iOS": [13], "macOS": [10, 15], "tvOS": [13], "watchOS": [7], "visionOS": [1]],
            "the platforms GRDB 7 declares; update this test with the manifest")
        let shim = try SwiftSourceScanner.files(under: "Sources/CSQLite", extensions: ["h"])
        let appleBlock = try Self.appleDeclarations()
        var problems: [String] = []
        var seen = Set<String>()
        for (directories, appLinked) in [(Self.appLinked, true), (Self.toolsOnly, false)] {
            var files = try directories.flatMap { try SwiftSourceScanner.files(under: $0) }
            if appLinked { files += shim }
            for file in files {
                XCTAssertTrue(
                    file.code.allSatisfy { $0 < 128 }, "\(file.path): code outside comments and strings is ASCII")
                for call in SwiftSourceScanner.calls(matching: "sqlite3[A-Za-z0-9_]*", in: file) {
                    if file.path.hasSuffix("shim.h"), appleBlock.range.contains(file.line(of: call.offset)) { continue }
                    seen.insert(call.name)
                    let at = file.location(call.offset)
                    switch AppleSQLiteAvailability.functions[call.name] {
                    case nil:
                        problems.append(
                            "\(at): \(call.name) is not in AppleSQLiteAvailability: add its row from Apple's sqlite3.h")
                    case .unannotated?:
                        break
                    case .notInAppleHeader?:
                        if appLinked {
                            problems.append(
                                "\(at): \(call.name) is not in Apple's sqlite3.h: what an app links must not call it")
                        } else if !appleBlock.text.contains(" \(call.name)(") {
                            problems.append(
                                "\(at): \(call.name) is not in Apple's sqlite3.h and CSQLite's shim does not declare it for Apple platforms"
                            )
                        }
                    case .introduced(let versions)?:
                        if !SwiftSourceScanner.isGuarded(call.offset, in: file, required: versions, declared: declared)
                        {
                            let needed = versions.sorted { $0.key < $1.key }
                                .map { "\($0.key) \($0.value.map(String.init).joined(separator: "."))" }.joined(
                                    separator: ", ")
                            problems.append(
                                "\(at): \(call.name) needs \(needed), newer than the declared platforms: call it under #available"
                            )
                        }
                    }
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
        // The scan saw the calls it exists for (a scanner that finds nothing proves nothing).
        XCTAssertTrue(
            seen.isSuperset(of: [
                "sqlite3_open_v2", "sqlite3_error_offset", "sqlite3_keyword_check",
                "sqlite3_config", "sqlite3session_diff",
            ]), "\(seen.sorted())")
    }

    /// Foundation methods newer than the declared platforms (FileHandle's throwing reads) are
    /// guarded wherever Shipyard's sources call them: every target compiles with the same
    /// deployment targets.
    func testFoundationMethodsNewerThanTheDeclaredPlatformsAreGuarded() throws {
        let declared = try SwiftSourceScanner.declaredPlatforms()
        var problems: [String] = []
        var calls = 0
        for file in try SwiftSourceScanner.files(under: "Sources") {
            for (pattern, versions) in AppleFoundationAvailability.methods {
                for call in SwiftSourceScanner.matches(of: pattern, in: file) {
                    calls += 1
                    if !SwiftSourceScanner.isGuarded(call.offset, in: file, required: versions, declared: declared) {
                        problems.append(
                            "\(file.location(call.offset)): FileHandle.\(call.name) needs macOS 10.15.4 / iOS 13.4: call it under #available"
                        )
                    }
                }
            }
        }
        XCTAssertTrue(problems.isEmpty, "\n" + problems.joined(separator: "\n"))
        _ = calls // none today: the sources read files through FileSystemKit's ReadableFile
        // The scan sees such a call, and a guard around it (a scanner that finds nothing proves nothing).
        let snippet = SwiftSourceScanner.File(
            path: "Snippet.swift",
            code: SwiftSourceScanner.codeOnly(
                Array(
                    "let a = try handle.read(upToCount: 8)\nif #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) { _ = try handle.readToEnd() }"
                        .utf8)))
        let found = AppleFoundationAvailability.methods.flatMap { pattern, versions in
            SwiftSourceScanner.matches(of: pattern, in: snippet).map {
                ($0.name, SwiftSourceScanner.isGuarded($0.offset, in: snippet, required: versions, declared: declared))
            }
        }
        XCTAssertEqual(found.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }, ["read false", "readToEnd true"])
    }

    /// The lines of CSQLite's shim inside its Apple-only block, and their text.
    static func appleDeclarations() throws -> (range: ClosedRange<Int>, text: String) {
        let lines = try SwiftSourceScanner.text("Sources/CSQLite/shim.h").components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#if") && $0.contains("defined(__APPLE__)") }),
            let end = lines[start...].firstIndex(where: { $0.hasPrefix("#endif") })
        else {
            return (0...0, "")
        }
        return ((start + 1)...(end + 1), lines[start...end].joined(separator: "\n"))
    }
}
