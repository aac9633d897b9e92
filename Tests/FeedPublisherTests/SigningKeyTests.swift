@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// The key file (mode 0600, never replaced unless asked) and `--key`'s three forms.
final class SigningKeyTests: XCTestCase {
    func testAKeyFileIsPrivateAndNotReplacedUnlessAsked() throws {
        let directory = try TemporaryDirectory("feed-keys", removedAfter: self)
        let path = directory.url("release.key").path
        let key = Ed25519SigningKey()
        let previous = umask(0)
        defer { umask(previous) }
        try SigningKeyFile.write(key, to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text.count, 65)
        XCTAssertTrue(text.hasSuffix("\n"))
        XCTAssertEqual(try SigningKeySource.file(path).load().rawRepresentation, key.rawRepresentation)
        XCTAssertThrowsError(try SigningKeyFile.write(Ed25519SigningKey(), to: path)) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, path)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
        chmod(path, 0o644)
        let other = Ed25519SigningKey()
        try SigningKeyFile.write(other, to: path, replacing: true)
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try SigningKeySource.file(path).load().rawRepresentation, other.rawRepresentation)
        XCTAssertEqual(key.publicHex.count, 64)
        XCTAssertEqual(key.publicHex, key.publicKey.publicValue)
    }

    func testKeysFromStandardInputAndTheEnvironmentAndErrorsNameTheSourceNotTheKey() throws {
        let key = Ed25519SigningKey()
        let text = SigningKeyFile.text(of: key)
        XCTAssertEqual(SigningKeySource(argument: "-"), .standardInput)
        XCTAssertEqual(SigningKeySource(argument: "env:FEED_KEY"), .environment("FEED_KEY"))
        XCTAssertEqual(SigningKeySource(argument: "keys/a.key"), .file("keys/a.key"))
        XCTAssertEqual(
            try SigningKeySource.standardInput.load(standardInput: { Data(text.utf8) }).rawRepresentation,
            key.rawRepresentation)
        XCTAssertEqual(
            try SigningKeySource.environment("FEED_KEY").load(environment: ["FEED_KEY": text]).rawRepresentation,
            key.rawRepresentation)
        XCTAssertThrowsError(try SigningKeySource.environment("FEED_KEY").load(environment: [:])) { error in
            XCTAssertEqual("\(error)", "env:FEED_KEY: error: the environment variable FEED_KEY is not set")
        }
        let malformed = String(text.dropFirst(2)) + "zz"
        XCTAssertThrowsError(try SigningKeySource.environment("K").load(environment: ["K": malformed])) { error in
            XCTAssertTrue("\(error)".hasPrefix("env:K: error: not an Ed25519 key file"), "\(error)")
            XCTAssertFalse("\(error)".contains(malformed.prefix(20)))
        }
        XCTAssertThrowsError(try SigningKeySource.file("/nonexistent/key").load()) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/key: error: cannot read the key file"), "\(error)")
        }
    }
}
