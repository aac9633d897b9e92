import FileSystemKit
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

/// The client's trusted metadata on disk: one file per role, `ROLE.json` (the role name percent-encoded,
/// and checked as a `PathComponent` of FileSystemKit: a role name from a delegation never names a file
/// outside the directory), each written to a temporary file in the same directory and renamed over the old
/// one, so a crash leaves the old document or the new, never a mix.
public struct MetadataStore: Sendable {
    /// The directory (the client's only place to write metadata).
    public let directory: URL

    /// A store in a directory, which must exist.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The file of a role.
    ///
    /// - Throws: ``TUFError/storage(path:reason:)`` naming the directory when the role's name cannot
    ///   name a file in it (too long once encoded).
    public func url(for role: String) throws -> URL {
        do {
            return directory.appendingPathComponent(try URLQuoting.documentFileName(of: role).name)
        } catch let error as CheckedNameError {
            throw TUFError.storage(path: directory.path, reason: "the role \(role.debugDescription): \(error)")
        }
    }

    /// A role's stored bytes, or nil when there are none.
    public func load(_ role: String) -> Data? {
        (try? url(for: role)).flatMap { try? Data(contentsOf: $0) }
    }

    /// Stores a role's bytes atomically.
    public func store(_ data: Data, for role: String) throws {
        try AtomicWrite.write(data, to: try url(for: role))
    }
}
