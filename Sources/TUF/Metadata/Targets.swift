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

/// A targets role (top-level or delegated): target files and delegations.
public struct Targets: Sendable {
    /// The role's `_type`.
    public static let type = "targets"

    public let header: SignedHeader
    /// By target path.
    public let targets: [String: TargetFile]
    public let delegations: Delegations?

    /// Reads targets from a document.
    public init(_ metadata: Metadata) throws {
        let reader = JSONFieldReader(metadata.signed, document: metadata.document, path: "signed")
        header = metadata.header
        let targetsReader = try reader.object("targets")
        var targets: [String: TargetFile] = [:]
        for (path, _) in targetsReader.object.members {
            targets[path] = try TargetFile(path: path, try targetsReader.object(path))
        }
        self.targets = targets
        delegations = metadata.signed.contains("delegations") ? try Delegations(try reader.object("delegations")) : nil
    }

    /// A targets `signed`, to sign.
    public static func signed(
        version: Int64, expires: Date, targets: [TargetFile], delegations: JSONObject? = nil
    ) -> JSONObject {
        var object = JSONObject([
            ("_type", .string(type)),
            ("expires", .string(Expiry.format(expires))),
            ("spec_version", .string(specificationVersion)),
            ("targets", .object(JSONObject(targets.map { ($0.path, .object($0.json)) }))),
            ("version", .integer(version)),
        ])
        if let delegations { object["delegations"] = .object(delegations) }
        return object
    }
}
