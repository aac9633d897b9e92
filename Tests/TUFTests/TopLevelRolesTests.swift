import Foundation
import TUF
import XCTest

/// Root's `roles` read as ``TopLevelRoles``: one field per top-level role, so that no lookup of
/// root, timestamp, snapshot or targets can miss (and none is force-unwrapped); a root naming
/// fewer or other roles is refused by name.
final class TopLevelRolesTests: XCTestCase {
    private let expires = Date(timeIntervalSince1970: 2_000_000_000)

    private func root(_ signed: JSONObject, key: Ed25519SigningKey) throws -> Root {
        try Root(Metadata(data: try Metadata.sign(signed, with: [key]), document: "1.root.json"))
    }

    func testEachRoleIsReadIntoItsOwnField() throws {
        let keys = (0..<4).map { _ in Ed25519SigningKey() }
        let ids = try keys.map { try $0.publicKey.keyID }
        let roles = TopLevelRoles(
            root: RoleKeys(keyIDs: [ids[0]], threshold: 1), timestamp: RoleKeys(keyIDs: [ids[1]], threshold: 1),
            snapshot: RoleKeys(keyIDs: [ids[2]], threshold: 1),
            targets: RoleKeys(keyIDs: [ids[3], ids[0]], threshold: 2))
        let publicKeys = Dictionary(uniqueKeysWithValues: zip(ids, keys.map(\.publicKey)))
        let read = try root(Root.signed(version: 1, expires: expires, keys: publicKeys, roles: roles), key: keys[0])
        XCTAssertEqual(read.roles, roles)
        XCTAssertEqual(read.roles.timestamp.keyIDs, [ids[1]])
        XCTAssertEqual(read.roles.targets.threshold, 2)
        XCTAssertEqual(read.roles["snapshot"], roles.snapshot)
        XCTAssertNil(read.roles["mirror"])
    }

    func testARootWithoutEveryTopLevelRoleIsRefusedByName() throws {
        let key = Ed25519SigningKey()
        let id = try key.publicKey.keyID
        var signed = Root.signed(
            version: 1, expires: expires, keys: [id: key.publicKey],
            roles: TopLevelRoles(all: RoleKeys(keyIDs: [id], threshold: 1)))
        var roles = try XCTUnwrap(signed["roles"]?.objectValue)
        roles["snapshot"] = nil
        signed["roles"] = .object(roles)
        XCTAssertThrowsError(try root(signed, key: key)) { error in
            XCTAssertEqual(
                error as? TUFError,
                .malformed(
                    document: "1.root.json",
                    reason: "signed.roles: must name exactly root, timestamp, snapshot and targets"))
        }
    }
}
