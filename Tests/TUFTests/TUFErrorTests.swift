import TUF
import XCTest

/// A ``TUFError`` carries what it refused (`subject`) and the check that refused it (`detail`)
/// as values of their own, so that a caller wording its own errors (FeedClient, FeedPublisher)
/// never takes its description apart: a subject holding ": " (a delegated role may be named so,
/// and a URL has a port) stays whole.
final class TUFErrorTests: XCTestCase {
    func testEveryCaseSaysItsSubjectAndItsDetailApart() {
        let role = "team: images.json"
        let cases: [(error: TUFError, subject: String, detail: String)] = [
            (.malformed(document: role, reason: "signed.version: missing"), role, "malformed: signed.version: missing"),
            (.tooLarge(document: role, limit: 10), role, "too large: more than 10 bytes"),
            (
                .wrongType(document: role, expected: "targets", found: "root"), role,
                "wrong type: expected targets, found root"
            ),
            (
                .belowThreshold(document: role, role: "team: images", valid: 0, threshold: 1, problems: ["bad"]), role,
                "signatures: 0 valid of the 1 required from team: images's keys (bad)"
            ),
            (
                .rollback(document: role, trusted: 5, received: 3), role,
                "rollback: version 3 is below the trusted version 5"
            ),
            (.sameVersion(document: role, version: 2), role, "same version: 2 is the version already trusted"),
            (
                .versionMismatch(document: role, expected: 2, received: 3), role,
                "version mismatch: expected version 2, received 3"
            ),
            (
                .expired(document: role, expires: "2020-01-01T00:00:00Z"), role,
                "expired: expired at 2020-01-01T00:00:00Z"
            ),
            (.lengthOrHashMismatch(document: role, reason: "3 bytes"), role, "length or hash mismatch: 3 bytes"),
            (.missingMeta(document: role, reason: "not in snapshot"), role, "missing: not in snapshot"),
            (.targetNotFound(path: "a: b.txt"), "a: b.txt", "not found: no trusted targets metadata lists it"),
            (.outOfOrder("root after timestamp"), "client", "out of order: root after timestamp"),
            (
                .download(url: "http://127.0.0.1:8080/1.root.json", reason: "404"), "http://127.0.0.1:8080/1.root.json",
                "download: 404"
            ),
            (.storage(path: "/tmp/a: b/root.json", reason: "denied"), "/tmp/a: b/root.json", "storage: denied"),
        ]
        for (error, subject, detail) in cases {
            XCTAssertEqual(error.subject, subject, "\(error)")
            XCTAssertEqual(error.detail, detail, "\(error)")
            XCTAssertEqual(error.description, "\(subject): \(detail)")
        }
    }
}
