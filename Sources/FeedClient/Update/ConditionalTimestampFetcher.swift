import Foundation
import TUF

/// The TUF updater's fetcher for one check: `timestamp.json` by a conditional GET
/// (`If-None-Match` with the ETag of the stored timestamp; a 304 hands the updater the stored
/// bytes, which it verifies again, expiry included), every other document as it is. Stops
/// before the next request once the check's task is cancelled.
final class ConditionalTimestampFetcher: Fetcher, @unchecked Sendable {
    private let http: HTTPFetcher
    private let stored: (data: Data, etag: String?)?
    private let lock = NSLock()
    private var cancelled = false
    private var fetchedETag: String?
    private var fetchedTimestamp: Data?

    /// A fetcher over `http`; `stored` is the trusted timestamp and its ETag, if any.
    init(http: HTTPFetcher, stored: (data: Data, etag: String?)?) {
        self.http = http
        self.stored = stored
    }

    /// Makes every later fetch throw `cancelled`.
    func cancel() { locked { cancelled = true } }

    /// The timestamp this check received (the stored one after a 304) and its ETag.
    var timestamp: (data: Data, etag: String?)? {
        locked { fetchedTimestamp.map { ($0, fetchedETag) } }
    }

    func fetch(_ url: URL, maximumLength: Int) throws -> Data {
        if locked({ cancelled }) {
            throw FeedUpdateError(
                subject: FeedUpdateError.documentName(url.absoluteString), check: .cancelled, reason: "cancelled")
        }
        guard url.lastPathComponent == "timestamp.json" else {
            return try http.fetch(url, maximumLength: maximumLength)
        }
        let etag = stored?.etag
        let (data, received): (Data, String?)
        switch try http.fetch(url, maximumLength: maximumLength, ifNoneMatch: etag) {
        case .notModified: (data, received) = (stored!.data, etag)
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
