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

/// The snapshot role: the version of every targets document (top-level and delegated).
public struct Snapshot: Sendable {
    /// The role's `_type`.
    public static let type = "snapshot"

    public let header: SignedHeader
    /// By file name: `targets.json`, `ROLE.json`.
    public let meta: [String: MetaFile]

    /// Reads snapshot from a document.
    public init(_ metadata: Metadata) throws {
        let reader = JSONFieldReader(metadata.signed, document: metadata.document, path: "signed")
        header = metadata.header
        let metaReader = try reader.object("meta")
        var meta: [String: MetaFile] = [:]
        for (name, _) in metaReader.object.members { meta[name] = try MetaFile(try metaReader.object(name)) }
        self.meta = meta
    }

    /// A snapshot's `signed`, to sign.
    public static func signed(version: Int64, expires: Date, meta: [String: MetaFile]) -> JSONObject {
        JSONObject([
            ("_type", .string(type)),
            ("expires", .string(Expiry.format(expires))),
            ("meta", .object(JSONObject(meta.sorted { $0.key < $1.key }.map { ($0.key, .object($0.value.json)) }))),
            ("spec_version", .string(specificationVersion)),
            ("version", .integer(version)),
        ])
    }
}
