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
import TUF
import EssentialsSupport

/// The TUF updater's fetcher for one check: `timestamp.json` by a conditional GET
/// (`If-None-Match` with the ETag of the stored timestamp; a 304 hands the updater the stored
/// bytes, which it verifies again, expiry included), every other document as it is. The
/// check's task cancellation stops the request under way, and any later one before it starts.
final class ConditionalTimestampFetcher: Fetcher, @unchecked Sendable {
    private let http: HTTPFetcher
    private let stored: (data: Data, etag: String?)?
    private let lock = Lock()
    private var fetchedETag: String?
    private var fetchedTimestamp: Data?

    /// A fetcher over `http`; `stored` is the trusted timestamp and its ETag, if any.
    init(http: HTTPFetcher, stored: (data: Data, etag: String?)?) {
        self.http = http
        self.stored = stored
    }

    /// The timestamp this check received (the stored one after a 304) and its ETag.
    var timestamp: (data: Data, etag: String?)? {
        locked { fetchedTimestamp.map { ($0, fetchedETag) } }
    }

    func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        if Task.isCancelled {
            throw FeedUpdateError(
                subject: FeedUpdateError.documentName(url.absoluteString), check: .cancelled, reason: "cancelled")
        }
        guard url.lastPathComponent == "timestamp.json" else {
            return try await http.fetch(url, maximumLength: maximumLength)
        }
        let etag = stored?.etag
        let (data, received): (Data, String?)
        switch try await http.fetch(url, maximumLength: maximumLength, ifNoneMatch: etag) {
        case .notModified: (data, received) = (stored?.data ?? Data(), etag) // 304 only answers a sent ETag
        case .modified(let body, let newETag): (data, received) = (body, newETag)
        }
        locked {
            fetchedTimestamp = data
            fetchedETag = received
        }
        return data
    }

    /// `body` holding the lock (NSLock's `withLock` needs macOS 14 / iOS 17).
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
