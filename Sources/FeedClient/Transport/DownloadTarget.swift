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

/// One file to download: where it is and what the signed metadata says it is.
///
/// The length and the SHA-256 come from metadata the client has already verified; the
/// download accepts nothing else (more bytes, fewer bytes or other bytes are each an error).
public struct DownloadTarget: Hashable, Sendable {
    /// Where the file is served.
    public var url: URL
    /// Its exact length in bytes, as the metadata says.
    public var length: Int64
    /// Its SHA-256, as 64 hexadecimal digits (either case), as the metadata says.
    public var sha256: String

    /// A file at `url` of exactly `length` bytes whose SHA-256 is `sha256` (hexadecimal).
    public init(url: URL, length: Int64, sha256: String) {
        self.url = url
        self.length = length
        self.sha256 = sha256.lowercased()
    }
}
