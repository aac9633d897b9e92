import Foundation

/// A fetcher reading `file:` URLs: for tests, and for a repository on a local disk.
public struct FileFetcher: Fetcher {
    /// A file fetcher.
    public init() {}

    public func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        guard url.isFileURL else { throw TUFError.download(url: url.absoluteString, reason: "not a file URL") }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw FetchError.notFound(url: url.absoluteString)
        }
        defer { handle.closeFile() }
        let data = handle.readData(ofLength: maximumLength + 1)
        guard data.count <= maximumLength else {
            throw FetchError.tooLarge(url: url.absoluteString, limit: maximumLength)
        }
        return data
    }
}
