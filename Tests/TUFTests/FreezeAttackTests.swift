import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// An expired document is never trusted as final (freeze), and what was trusted stays as it was.
final class FreezeAttackTests: XCTestCase {
    private let past = Date(timeIntervalSince1970: 1_600_000_000)

    /// A repository a client has refreshed from, then publishing an expired `role`.
    private func expiredRepository(_ role: String) throws -> (RepositoryFixture, ClientFixture) {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        repository.expires[role] = past
        switch role {
        case "root": try repository.publishRoot()
        case "targets":
            try repository.publishTargets()
            try repository.publishSnapshot()
            try repository.publishTimestamp()
        case "snapshot":
            try repository.publishSnapshot()
            try repository.publishTimestamp()
        default: try repository.publishTimestamp()
        }
        return (repository, client)
    }

    func testExpiredTimestampIsRefused() throws {
        let (_, client) = try expiredRepository("timestamp")
        try client.assertRefused(.expired(document: "timestamp.json", expires: Expiry.format(past)))
    }

    func testExpiredSnapshotIsRefused() throws {
        let (_, client) = try expiredRepository("snapshot")
        try client.assertRefused(.expired(document: "snapshot.json", expires: Expiry.format(past)), roles: ["snapshot"])
    }

    func testExpiredTargetsIsRefused() throws {
        let (_, client) = try expiredRepository("targets")
        try client.assertRefused(.expired(document: "targets.json", expires: Expiry.format(past)), roles: ["targets"])
    }

    func testExpiredRootIsRefused() throws {
        // The new root is trusted (signed by the old one) but, expired, lets nothing else be updated.
        let (repository, client) = try expiredRepository("root")
        try repository.publishTimestamp()
        try client.assertRefused(.expired(document: "root.json", expires: Expiry.format(past)), roles: ["timestamp"])
        XCTAssertEqual(try client.version("root"), 2)
        XCTAssertEqual(try client.version("timestamp"), 1)
    }

    func testTimestampExpiresAtTheSecondItNames() throws {
        let repository = try RepositoryFixture()
        let expiry = Date(timeIntervalSince1970: TimeInterval(Int(Date().timeIntervalSince1970) + 3_600))
        repository.expires["timestamp"] = expiry
        try repository.publishTimestamp()
        let client = try ClientFixture(repository)
        try client.refresh(at: expiry.addingTimeInterval(-1))
        XCTAssertThrowsError(try client.refresh(at: expiry)) { error in
            XCTAssertEqual(error as? TUFError, .expired(document: "timestamp.json", expires: Expiry.format(expiry)))
        }
    }
}
