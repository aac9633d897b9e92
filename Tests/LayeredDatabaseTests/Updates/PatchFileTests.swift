import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// ``PatchFile``: a patch checked (its SHA-256, when given) and its header read once, which a
/// caller can check against what it expects before ``UpdateInstaller/installPatch(_:)``
/// installs it by that same header.
final class PatchFileTests: LayeredDatabaseTestCase {
    func testThePatchIsCheckedAndItsHeaderReadOnceForTheInstaller() throws {
        let fixture = try UpdateFixture.make(self)
        let v8 = try fixture.version(
            "v8.sqlite", "INSERT INTO food VALUES (4, 30, 'Kiwi', NULL); PRAGMA user_version = 8;")
        let path = fixture.directory.appendingPathComponent("7-8.sql").path
        try BuiltPatch.write(old: fixture.bundled, new: v8, to: path)
        let patch = try PatchFile(at: path, sha256: try BuiltPatch.sha256(path))
        let header = try XCTUnwrap(patch.header)
        XCTAssertEqual(header.base.userVersion, 7)
        XCTAssertEqual(header.result.userVersion, 8)
        XCTAssertEqual(try fixture.installer.installPatch(patch).userVersion, 8)
        XCTAssertEqual(try DatabaseContent.dump(fixture.installed), try DatabaseContent.dump(v8))
    }

    func testAPatchOfOtherBytesIsRefusedBeforeItsHeaderIsRead() throws {
        let fixture = try UpdateFixture.make(self)
        let path = fixture.directory.appendingPathComponent("7-8.sql").path
        try Data("-- not a dbgen diff header\nPRAGMA user_version = 8;\n".utf8).write(to: URL(fileURLWithPath: path))
        let before = fixture.snapshot()
        let other = String(repeating: "0", count: 64)
        XCTAssertThrowsError(try PatchFile(at: path, sha256: other)) { error in
            guard case .checksumMismatch(let named, let expected, _) = error as? LayeredDatabaseError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(named, path)
            XCTAssertEqual(expected, other)
        }
        XCTAssertEqual(fixture.snapshot(), before)
    }
}
