import Foundation
import TUF

/// A fetcher that keeps a copy of every file it fetched, by name (the URL's last path
/// component: `2.root.json`, `timestamp.json`, `7.snapshot.json`): how `feed pull` and
/// `feed verify --against` get the exact bytes of the documents TUF's ``Updater`` trusted.
final class RecordingFetcher: Fetcher, @unchecked Sendable {
    private let fetcher: Fetcher
    private let lock = NSLock()
    private var recorded: [String: Data] = [:]

    /// A recorder of what `fetcher` fetches.
    init(_ fetcher: Fetcher) {
        self.fetcher = fetcher
    }

    func fetch(_ url: URL, maximumLength: Int) throws -> Data {
        let data = try fetcher.fetch(url, maximumLength: maximumLength)
        lock.lock()
        defer { lock.unlock() }
        recorded[url.lastPathComponent] = data
        return data
    }

    /// What was fetched, by name.
    var documents: [String: Data] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
