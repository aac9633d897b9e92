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
import FileSystemKit

/// A fetcher reading `file:` URLs: for tests, and for a repository on a local disk.
///
/// A URL whose path, once percent-decoded, holds a `..` name or a NUL byte is refused: the updater joins names from
/// metadata to the repository's URL, and none of them may climb out of it (an encoded `%2F..%2F` in a
/// role or target name included).
public struct FileFetcher: Fetcher {
    /// A file fetcher.
    public init() {}

    public func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        guard url.isFileURL else { throw TUFError.download(url: url.absoluteString, reason: "not a file URL") }
        // Foundations differ in what `path` decodes (`%2F` and `%00` stay encoded in some): every
        // escape is decoded here too, and neither reading may climb out.
        let decoded = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath.percentDecoded
        guard
            [url.path, decoded ?? "/.."].allSatisfy({ !$0.split(separator: "/").contains("..") && !$0.utf8.contains(0) }
            )
        else {
            throw TUFError.download(
                url: url.absoluteString, reason: "refused: the path climbs out of its directory (..) or holds a NUL")
        }
        guard let file = ReadableFile(path: url.path) else {
            throw FetchError.notFound(url: url.absoluteString)
        }
        let data: Data
        do {
            data = Data(try file.read(atMost: maximumLength + 1))
        } catch let error as FileSystemError {
            throw TUFError.download(url: url.absoluteString, reason: error.reason)
        }
        guard data.count <= maximumLength else {
            throw FetchError.tooLarge(url: url.absoluteString, limit: maximumLength)
        }
        return data
    }
}
