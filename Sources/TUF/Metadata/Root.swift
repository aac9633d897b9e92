#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The root role: the keys and thresholds of the four top-level roles.
public struct Root: Sendable {
    /// The role's `_type`.
    public static let type = "root"
    /// The four role names root must name.
    public static let topLevelRoles = ["root", "timestamp", "snapshot", "targets"]

    public let header: SignedHeader
    /// Whether metadata and targets are published under versioned / hash-prefixed names.
    public let consistentSnapshot: Bool
    /// Keys by id.
    public let keys: [String: PublicKey]
    /// The keys and threshold of each top-level role.
    public let roles: TopLevelRoles
    /// Every member of `signed` as received, those this library does not read included (an
    /// application's own, which the root keys sign with the rest).
    public let members: JSONObject

    /// Reads root from a document.
    public init(_ metadata: Metadata) throws {
        let reader = JSONFieldReader(metadata.signed, document: metadata.document, path: "signed")
        header = metadata.header
        members = metadata.signed
        consistentSnapshot =
            metadata.signed.contains("consistent_snapshot")
            ? try reader.bool("consistent_snapshot") : false
        keys = try readKeys(try reader.object("keys"))
        roles = try TopLevelRoles(try reader.object("roles"))
    }

    /// A root's `signed`, to sign.
    public static func signed(
        version: Int64, expires: Date, keys: [String: PublicKey], roles: TopLevelRoles,
        consistentSnapshot: Bool = true
    ) -> JSONObject {
        JSONObject([
            ("_type", .string(type)),
            ("consistent_snapshot", .bool(consistentSnapshot)),
            ("expires", .string(Expiry.format(expires))),
            ("keys", .object(JSONObject(keys.sorted { $0.key < $1.key }.map { ($0.key, .object($0.value.json)) }))),
            ("roles", .object(roles.json)),
            ("spec_version", .string(specificationVersion)),
            ("version", .integer(version)),
        ])
    }
}

/// The TUF specification version this client writes.
public let specificationVersion = "1.0.31"

/// Reads a `keys` object: key id to key. A key id must be the key's hash (``PublicKey/isNamed(by:)``), so
/// that no id names a key it is not: the ids a role lists are then the keys it trusts.
func readKeys(_ reader: JSONFieldReader) throws -> [String: PublicKey] {
    var keys: [String: PublicKey] = [:]
    for (keyID, value) in reader.object.members {
        let key = try PublicKey(json: value, document: reader.document, path: reader.member(keyID))
        guard (try? key.isNamed(by: keyID)) == true else {
            let hash = (try? key.keyID).map { " (it is \($0))" } ?? ""
            throw reader.fail(keyID, "the key id is not the SHA-256 of the key's canonical JSON\(hash)")
        }
        keys[keyID] = key
    }
    return keys
}
