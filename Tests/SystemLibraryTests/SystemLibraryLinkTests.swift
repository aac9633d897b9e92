import CGit2
import CLibXML2
import CSQLite
import Foundation
import ShipyardTestSupport
import XCTest

/// Proves each system library is found by pkg-config, compiles through its shim and links,
/// and that the library linked is the one pkg-config describes (the headers and the shared
/// object agree). Foundation is imported on purpose: the libxml2 shim must not clash with
/// _FoundationICU.
final class SystemLibraryLinkTests: XCTestCase {
    /// `pkg-config --modversion MODULE`, the version the build was configured against.
    private func configuredVersion(_ module: String) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/env", ["pkg-config", "--modversion", module])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testSQLiteLinksAndMatchesItsHeaderAndTheShell() throws {
        let version = String(cString: sqlite3_libversion())
        XCTAssertEqual(version, try configuredVersion("sqlite3"))
        XCTAssertEqual(sqlite3_libversion_number(), SQLITE_VERSION_NUMBER, "header and library differ")
        // The sqlite3 shell, the tests' oracle, runs the same library version.
        XCTAssertEqual(try Oracle.sqlite3.output(["-version"]).split(separator: " ").first.map(String.init), version)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        XCTAssertEqual(sqlite3_exec(db, "CREATE TABLE t(x)", nil, nil, nil), SQLITE_OK)
    }

    func testSQLiteSessionExtensionIsDeclaredAndPresent() throws {
        // dbgen diff --changeset needs the session extension: the shim's defines declare it,
        // and Debian's library must provide it.
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        var session: OpaquePointer?
        XCTAssertEqual(sqlite3session_create(db, "main", &session), SQLITE_OK)
        sqlite3session_delete(session)
    }

    func testLibGit2LinksAtTheConfiguredVersion() throws {
        XCTAssertGreaterThanOrEqual(git_libgit2_init(), 1)
        defer { git_libgit2_shutdown() }
        var major: Int32 = 0, minor: Int32 = 0, rev: Int32 = 0
        XCTAssertEqual(git_libgit2_version(&major, &minor, &rev), 0)
        XCTAssertEqual("\(major).\(minor).\(rev)", try configuredVersion("libgit2"))
    }

    #if os(Linux)
    /// CGit2Loader's definitions are the ones its generator writes from the system's git2.h: one
    /// for every libgit2 function Swift calls, each with the header's own prototype.
    func testTheLibgit2LoaderIsWhatItsGeneratorWrites() throws {
        let script = SwiftSourceScanner.packageRoot.appendingPathComponent("scripts/gen-git2-loader.py").path
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", script, "--check"])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
    }
    #endif

    func testLibXML2ParsesAtTheConfiguredVersion() throws {
        let xml = "<plist version=\"1.0\"><string>r0000</string></plist>"
        let doc = xml.withCString {
            xmlReadMemory($0, Int32(strlen($0)), "t.plist", nil, Int32(XML_PARSE_NONET.rawValue))
        }
        let root = try XCTUnwrap(xmlDocGetRootElement(doc))
        XCTAssertEqual(String(cString: root.pointee.name), "plist")
        xmlFreeDoc(doc)
        // xmlParserVersion is "20914" for 2.9.14.
        let parts = try configuredVersion("libxml-2.0").split(separator: ".").compactMap { Int($0) }
        XCTAssertEqual(parts.count, 3)
        XCTAssertEqual(
            __xmlParserVersion()?.pointee.map { Int(String(cString: $0)) } ?? nil,
            parts[0] * 10000 + parts[1] * 100 + parts[2])
    }
}
