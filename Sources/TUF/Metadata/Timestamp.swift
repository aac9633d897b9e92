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

/// The timestamp role: the current snapshot's version (and optionally its length and hashes).
public struct Timestamp: Sendable {
    /// The role's `_type`.
    public static let type = "timestamp"

    public let header: SignedHeader
    /// `meta["snapshot.json"]`.
    public let snapshotMeta: MetaFile

    /// Reads timestamp from a document: `meta` must hold exactly `snapshot.json`.
    public init(_ metadata: Metadata) throws {
        let reader = JSONFieldReader(metadata.signed, document: metadata.document, path: "signed")
        header = metadata.header
        let meta = try reader.object("meta")
        guard meta.object.keys == ["snapshot.json"] else {
            throw reader.fail("meta", "must hold exactly snapshot.json")
        }
        snapshotMeta = try MetaFile(try meta.object("snapshot.json"))
    }

    /// A timestamp's `signed`, to sign.
    public static func signed(version: Int64, expires: Date, snapshot: MetaFile) -> JSONObject {
        JSONObject([
            ("_type", .string(type)),
            ("expires", .string(Expiry.format(expires))),
            ("meta", .object(JSONObject([("snapshot.json", .object(snapshot.json))]))),
            ("spec_version", .string(specificationVersion)),
            ("version", .integer(version)),
        ])
    }
}
