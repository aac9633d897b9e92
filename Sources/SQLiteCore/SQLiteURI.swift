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
import EssentialsSupport

/// Builds SQLite URI filenames (`file:PATH?key=value`) safely from arbitrary paths.
package enum SQLiteURI {
    /// Bytes left as they are in the path; everything else (including `?`, `#`, `%`,
    /// quotes, spaces and non-ASCII UTF-8 bytes) is percent-encoded.
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)

    /// Percent-encodes a file path for the path part of a SQLite URI.
    package static func encodePath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += PrintfFormat.string("%%%02X", byte)
            }
        }
        return encoded
    }

    /// A `file:` URI for `path` with query parameters, e.g.
    /// `fileURI(path: "/a b/x.sqlite", parameters: [("mode", "ro"), ("immutable", "1")])`
    /// is `file:///a%20b/x.sqlite?mode=ro&immutable=1`.
    ///
    /// A relative path is made absolute against the current directory first, so the URI
    /// always has an empty authority (`file:///…`) and a path starting with `//` is never
    /// taken for a host name.
    package static func fileURI(path: String, parameters: [(String, String)] = []) -> String {
        var uri = "file://" + encodePath(absolutePath(path))
        if !parameters.isEmpty {
            uri += "?" + parameters.map { "\(encodePath($0.0))=\(encodePath($0.1))" }.joined(separator: "&")
        }
        return uri
    }

    /// `path` made absolute against the current working directory (no symlink resolution).
    package static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
