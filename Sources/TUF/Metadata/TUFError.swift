/// Why the client refused a document, a target or a step: each case names the document or file and the check.
///
/// `description` reads `DOCUMENT: CHECK: DETAIL`, e.g. `timestamp.json: rollback: version 3 is below the
/// trusted version 5`.
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

    public var description: String {
        switch self {
        case .malformed(let document, let reason): return "\(document): malformed: \(reason)"
        case .tooLarge(let document, let limit): return "\(document): too large: more than \(limit) bytes"
        case .wrongType(let document, let expected, let found):
            return "\(document): wrong type: expected \(expected), found \(found)"
        case .belowThreshold(let document, let role, let valid, let threshold, let problems):
            let detail = problems.isEmpty ? "" : " (" + problems.joined(separator: "; ") + ")"
            return "\(document): signatures: \(valid) valid of the \(threshold) required from \(role)'s keys\(detail)"
        case .rollback(let document, let trusted, let received):
            return "\(document): rollback: version \(received) is below the trusted version \(trusted)"
        case .sameVersion(let document, let version):
            return "\(document): same version: \(version) is the version already trusted"
        case .versionMismatch(let document, let expected, let received):
            return "\(document): version mismatch: expected version \(expected), received \(received)"
        case .expired(let document, let expires): return "\(document): expired: expired at \(expires)"
        case .lengthOrHashMismatch(let document, let reason): return "\(document): length or hash mismatch: \(reason)"
        case .missingMeta(let document, let reason): return "\(document): missing: \(reason)"
        case .targetNotFound(let path): return "\(path): not found: no trusted targets metadata lists it"
        case .outOfOrder(let reason): return "client: out of order: \(reason)"
        case .download(let url, let reason): return "\(url): download: \(reason)"
        case .storage(let path, let reason): return "\(path): storage: \(reason)"
        }
    }
}
