import CGit2
import CLibXML2
import CSQLite
import Foundation
import XCTest

/// Proves each system library is found by pkg-config, compiles through its shim and links.
/// Foundation is imported on purpose: the libxml2 shim must not clash with _FoundationICU.
final class SystemLibraryLinkTests: XCTestCase {
    func testSQLiteLinks() throws {
        let version = String(cString: sqlite3_libversion())
        XCTAssertTrue(version.hasPrefix("3."), version)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, "CREATE TABLE t(x)", nil, nil, nil), SQLITE_OK)
        sqlite3_close(db)
    }

    func testLibGit2Links() throws {
        XCTAssertGreaterThanOrEqual(git_libgit2_init(), 1)
        defer { git_libgit2_shutdown() }
        var major: Int32 = 0, minor: Int32 = 0, rev: Int32 = 0
        XCTAssertEqual(git_libgit2_version(&major, &minor, &rev), 0)
        XCTAssertGreaterThanOrEqual(major * 100 + minor, 105)
    }

    func testLibXML2Links() throws {
        let xml = "<plist version=\"1.0\"><string>r0000</string></plist>"
        let doc = xml.withCString { xmlReadMemory($0, Int32(strlen($0)), "t.plist", nil, Int32(XML_PARSE_NONET.rawValue)) }
        XCTAssertNotNil(doc)
        let root = xmlDocGetRootElement(doc)
        XCTAssertEqual(String(cString: root!.pointee.name), "plist")
        xmlFreeDoc(doc)
        XCTAssertEqual(ProcessInfo.processInfo.processName.isEmpty, false)
    }
}
