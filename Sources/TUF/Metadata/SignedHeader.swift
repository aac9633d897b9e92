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

/// What every role's `signed` holds: `_type`, `spec_version`, `version` and `expires`.
public struct SignedHeader: Equatable, Sendable {
    /// `root`, `timestamp`, `snapshot` or `targets`.
    public let type: String
    /// `spec_version`: `1.x` or `1.x.y`.
    public let specVersion: String
    /// A positive 64-bit version.
    public let version: Int64
    /// When the document stops being trusted.
    public let expires: Date
    /// `expires` as written.
    public let expiresText: String

    init(_ reader: JSONFieldReader) throws {
        type = try reader.string("_type")
        specVersion = try reader.string("spec_version")
        let parts = specVersion.split(separator: ".", omittingEmptySubsequences: false)
        let isNumber = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard (2...3).contains(parts.count), parts.allSatisfy(isNumber) else {
            throw reader.fail("spec_version", "\"\(specVersion)\" is not a version")
        }
        guard parts[0] == "1" else { throw reader.fail("spec_version", "\(specVersion) is not TUF 1") }
        version = try reader.integer("version", in: 1...Int64.max)
        expiresText = try reader.string("expires")
        guard let expires = Expiry.parse(expiresText) else {
            throw reader.fail("expires", "\"\(expiresText)\" is not of the form YYYY-MM-DDTHH:MM:SSZ")
        }
        self.expires = expires
    }

    /// Whether the document has expired at `time` (expired from the second `expires` names).
    public func isExpired(at time: Date) -> Bool { time >= expires }
}
