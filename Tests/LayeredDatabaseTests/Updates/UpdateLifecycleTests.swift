import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// Updates over real networks: a patch names its base and target, a re-download is installed
/// already, a patch for another base is refused naming both versions.
final class UpdateLifecycleTests: LayeredDatabaseTestCase {
    private var fixture: UpdateFixture!
    private var v8 = "", v9 = ""

    override func setUpWithError() throws {
        fixture = try UpdateFixture.make(self)
        v8 = try fixture.version(
            "v8.sqlite", "UPDATE food SET name = 'Green apple' WHERE pk = 1; PRAGMA user_version = 8;")
        v9 = try fixture.version(
            "v9.sqlite",
            "UPDATE food SET name = 'Green apple' WHERE pk = 1; INSERT INTO food VALUES (5, 1, 'Fig', NULL); PRAGMA user_version = 9;"
        )
    }

    private func patch(_ old: String, _ new: String, _ name: String) throws -> String {
        let path = fixture.directory.appendingPathComponent(name).path
        try BuiltPatch.write(old: old, new: new, to: path)
        return path
    }

    /// The header `dbgen diff` writes is the one the installer reads, and its hashes are the
    /// files' SHA-256 as python3's hashlib computes them.
    func testTheBuiltPatchNamesItsBaseAndTarget() throws {
        let patch78 = try patch(fixture.bundled, v8, "7-8.sql")
        let header = try XCTUnwrap(try PatchHeader.read(fromPatchAt: patch78))
        XCTAssertEqual(header.base, PatchHeader.Version(userVersion: 7, sha256: try BuiltPatch.sha256(fixture.bundled)))
        XCTAssertEqual(header.result, PatchHeader.Version(userVersion: 8, sha256: try BuiltPatch.sha256(v8)))
        XCTAssertTrue(
            try String(contentsOfFile: patch78, encoding: .utf8).hasPrefix(header.text + "BEGIN TRANSACTION;\n"))
    }

    func testReinstallingThePatchOrTheFileChangesNothingAndSaysSo() throws {
        let patch78 = try patch(fixture.bundled, v8, "7-8.sql"), patch89 = try patch(v8, v9, "8-9.sql")
        XCTAssertEqual(
            try fixture.installer.installPatch(at: patch78), .init(userVersion: 8, wasAlreadyInstalled: false))
        var before = fixture.snapshot()
        XCTAssertEqual(
            try fixture.installer.installPatch(at: patch78), .init(userVersion: 8, wasAlreadyInstalled: true))
        XCTAssertEqual(fixture.snapshot(), before, "a re-download changes nothing")
        // The patched copy is not v8's bytes: the next patch's base is recognised all the same.
        XCTAssertEqual(
            try fixture.installer.installPatch(at: patch89), .init(userVersion: 9, wasAlreadyInstalled: false))
        XCTAssertEqual(try DatabaseContent.dump(fixture.installed), try DatabaseContent.dump(v9))
        before = fixture.snapshot()
        XCTAssertEqual(try fixture.installer.installPatch(at: patch89).wasAlreadyInstalled, true)
        XCTAssertEqual(fixture.snapshot(), before)
        // A whole file downloaded twice.
        let v10 = try fixture.version("v10.sqlite", "PRAGMA user_version = 10;")
        XCTAssertEqual(try fixture.installer.installDatabase(at: v10).wasAlreadyInstalled, false)
        before = fixture.snapshot()
        XCTAssertEqual(
            try fixture.installer.installDatabase(at: v10), .init(userVersion: 10, wasAlreadyInstalled: true))
        XCTAssertEqual(fixture.snapshot(), before)
    }

    func testAPatchForAnotherBaseIsRefusedNamingBothVersions() throws {
        let patch89 = try patch(v8, v9, "8-9.sql")
        let before = fixture.snapshot()
        XCTAssertThrowsError(try fixture.installer.installPatch(at: patch89)) { error in
            guard
                case .patchForAnotherBase(patch89, let base, let result, 7, fixture.bundled)? = error
                    as? LayeredDatabaseError
            else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([base.userVersion, result.userVersion], [8, 9])
            let message = (error as! LayeredDatabaseError).message
            XCTAssertTrue(message.contains("from user_version 8 to 9") && message.contains("user_version 7"), message)
            XCTAssertEqual((error as! LayeredDatabaseError).path, patch89)
        }
        XCTAssertEqual(fixture.snapshot(), before)
        // The same user_version with other content is another base too.
        let other7 = try fixture.version("other7.sqlite", "DELETE FROM food WHERE pk = 3;")
        let patchOther = try patch(other7, v8, "other-8.sql")
        XCTAssertThrowsError(try fixture.installer.installPatch(at: patchOther)) {
            guard case .patchForAnotherBase(_, _, _, 7, _)? = $0 as? LayeredDatabaseError else {
                return XCTFail("\($0)")
            }
            XCTAssertTrue(($0 as! LayeredDatabaseError).message.contains("with other content"))
        }
        XCTAssertEqual(fixture.snapshot(), before)
    }

    func testAMalformedHeaderIsAnErrorAtItsLine() throws {
        let path = fixture.directory.appendingPathComponent("bad.sql").path
        try Data(
            "-- dbgen diff base: user_version=7 sha256=xyz\n-- dbgen diff target: user_version=8 sha256=\(String(repeating: "a", count: 64))\nPRAGMA user_version=8;\n"
                .utf8
        )
        .write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try fixture.installer.installPatch(at: path)) {
            let error = $0 as? LayeredDatabaseError
            XCTAssertEqual(error?.path, path)
            XCTAssertEqual(error?.line, 1)
            XCTAssertEqual(error?.description.hasPrefix("\(path):1: invalid patch header"), true, "\($0)")
        }
    }

    /// The error's fields are separate: a patch statement's line is `line`, never part of `path`.
    func testPathLineAndMessageAreSeparateFields() throws {
        let path = fixture.directory.appendingPathComponent("failing.sql").path
        try Data("PRAGMA user_version = 9;\nINSERT INTO food VALUES (1, 0, 'dup', NULL);\n".utf8).write(
            to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try fixture.installer.installPatch(at: path)) {
            let error = $0 as? LayeredDatabaseError
            XCTAssertEqual(error?.path, path)
            XCTAssertEqual(error?.line, 2)
            XCTAssertEqual(error?.message.hasPrefix("patch statement failed: UNIQUE constraint failed"), true, "\($0)")
            XCTAssertEqual(error?.description, "\(path):2: \(error?.message ?? "")")
        }
    }
}
