#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystemKit

/// A fetcher reading `file:` URLs: for tests, and for a repository on a local disk.
public struct FileFetcher: Fetcher {
    /// A file fetcher.
    public init() {}

    public func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        guard url.isFileURL else { throw TUFError.download(url: url.absoluteString, reason: "not a file URL") }
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
