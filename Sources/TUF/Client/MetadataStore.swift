#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The client's trusted metadata on disk: one file per role, `ROLE.json` (the role name percent-encoded),
/// each written to a temporary file in the same directory and renamed over the old one, so a crash leaves
/// the old document or the new, never a mix.
public struct MetadataStore: Sendable {
    /// The directory (the client's only place to write metadata).
    public let directory: URL

    /// A store in a directory, which must exist.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file of a role.
    public func url(for role: String) -> URL {
        directory.appendingPathComponent(URLQuoting.quote(role) + ".json")
    }

    /// A role's stored bytes, or nil when there are none.
    public func load(_ role: String) -> Data? {
        try? Data(contentsOf: url(for: role))
    }

    /// Stores a role's bytes atomically.
    public func store(_ data: Data, for role: String) throws {
        try AtomicWrite.write(data, to: url(for: role))
    }
}
