/// Why the client refused a document, a target or a step: each case names the document or file and the check.
///
/// ``subject`` names what was refused and ``detail`` the check and why; `description` reads
/// `SUBJECT: DETAIL`, e.g. `timestamp.json: rollback: version 3 is below the trusted version 5`.
/// A caller that words its own errors takes the two apart, never by reading the description.
public enum TUFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not JSON, or not metadata of TUF 1.0's form.
    case malformed(document: String, reason: String)
    /// The document or file is longer than the limit, refused before it is parsed.
    case tooLarge(document: String, limit: Int)
    /// The document's `_type` is not the role expected.
    case wrongType(document: String, expected: String, found: String)
    /// Fewer valid signatures from the role's keys than its threshold; `problems` says what each failed
    /// signature was (bad signature, a key the role does not name, a key type this client cannot verify).
    case belowThreshold(document: String, role: String, valid: Int, threshold: Int, problems: [String])
    /// A version lower than one already trusted (rollback).
    case rollback(document: String, trusted: Int64, received: Int64)
    /// The same version as the one trusted: nothing new (not a failure of the refresh).
    case sameVersion(document: String, version: Int64)
    /// A version other than the one the referring document names (mix-and-match, or a root out of sequence).
    case versionMismatch(document: String, expected: Int64, received: Int64)
    /// The document's `expires` has passed (freeze).
    case expired(document: String, expires: String)
    /// The bytes' length or a hash is not what the referring metadata says.
    case lengthOrHashMismatch(document: String, reason: String)
    /// The referring metadata does not list this document or role.
    case missingMeta(document: String, reason: String)
    /// The target path is not in any targets metadata that is trusted for it.
    case targetNotFound(path: String)
    /// A step was called out of the workflow's order (a programming error of the caller).
    case outOfOrder(String)
    /// The transport could not get the document or target.
    case download(url: String, reason: String)
    /// The local metadata store could not be read or written.
    case storage(path: String, reason: String)

    /// What was refused: a document (`timestamp.json`, `3.root.json`), a target path, the URL
    /// a download failed at, a file of the local store, or `client` for a step out of order.
    public var subject: String {
        switch self {
        case .malformed(let document, _), .tooLarge(let document, _), .wrongType(let document, _, _),
            .belowThreshold(let document, _, _, _, _), .rollback(let document, _, _), .sameVersion(let document, _),
            .versionMismatch(let document, _, _), .expired(let document, _), .lengthOrHashMismatch(let document, _),
            .missingMeta(let document, _):
            return document
        case .targetNotFound(let path): return path
        case .outOfOrder: return "client"
        case .download(let url, _): return url
        case .storage(let path, _): return path
        }
    }

    /// The check that refused the subject and why, the subject not repeated: `rollback: version 3
    /// is below the trusted version 5`.
    public var detail: String {
        switch self {
        case .malformed(_, let reason): return "malformed: \(reason)"
        case .tooLarge(_, let limit): return "too large: more than \(limit) bytes"
        case .wrongType(_, let expected, let found): return "wrong type: expected \(expected), found \(found)"
        case .belowThreshold(_, let role, let valid, let threshold, let problems):
            let detail = problems.isEmpty ? "" : " (" + problems.joined(separator: "; ") + ")"
            return "signatures: \(valid) valid of the \(threshold) required from \(role)'s keys\(detail)"
        case .rollback(_, let trusted, let received):
            return "rollback: version \(received) is below the trusted version \(trusted)"
        case .sameVersion(_, let version): return "same version: \(version) is the version already trusted"
        case .versionMismatch(_, let expected, let received):
            return "version mismatch: expected version \(expected), received \(received)"
        case .expired(_, let expires): return "expired: expired at \(expires)"
        case .lengthOrHashMismatch(_, let reason): return "length or hash mismatch: \(reason)"
        case .missingMeta(_, let reason): return "missing: \(reason)"
        case .targetNotFound: return "not found: no trusted targets metadata lists it"
        case .outOfOrder(let reason): return "out of order: \(reason)"
        case .download(_, let reason): return "download: \(reason)"
        case .storage(_, let reason): return "storage: \(reason)"
        }
    }

    /// `SUBJECT: DETAIL`.
    public var description: String { "\(subject): \(detail)" }
}
