import Crypto
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

/// A delegated role: its keys and threshold, and the target paths it is trusted for.
public struct DelegatedRole: Sendable {
    public let name: String
    public let keys: RoleKeys
    /// Whether a search for a target stops at this role when the role is trusted for the path.
    public let terminating: Bool
    /// Shell-style patterns, one per path segment (`*`, `?`, `[...]`), or nil.
    public let paths: [String]?
    /// Hex prefixes of the SHA-256 of the target path, or nil.
    public let pathHashPrefixes: [String]?

    init(_ reader: JSONFieldReader) throws {
        name = try reader.string("name")
        do {
            _ = try URLQuoting.documentFileName(of: name)
        } catch let error as CheckedNameError {
            throw reader.fail("name", "cannot name a document: \(error)")
        }
        keys = try RoleKeys(reader)
        terminating = try reader.bool("terminating")
        paths = reader.object.contains("paths") ? try reader.uniqueStrings("paths") : nil
        pathHashPrefixes =
            reader.object.contains("path_hash_prefixes")
            ? try reader.uniqueStrings("path_hash_prefixes") : nil
        guard paths == nil || pathHashPrefixes == nil else {
            throw reader.fail("paths", "paths and path_hash_prefixes are exclusive")
        }
    }

    /// Whether this role is trusted for a target path.
    public func isDelegated(_ targetPath: String) -> Bool {
        if let pathHashPrefixes {
            let hash = Hex.encode(SHA256.hash(data: Data(targetPath.utf8)))
            return pathHashPrefixes.contains { hash.hasPrefix($0) }
        }
        if let paths { return paths.contains { PathPattern.matches(targetPath, pattern: $0) } }
        return false
    }
}
