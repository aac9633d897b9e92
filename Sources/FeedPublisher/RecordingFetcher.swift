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

/// A fetcher that keeps a copy of every file it fetched, by name (the URL's last path
/// component: `2.root.json`, `timestamp.json`, `7.snapshot.json`): how `feed pull` and
/// `feed verify --against` get the exact bytes of the documents TUF's ``Updater`` trusted.
final class RecordingFetcher: Fetcher, @unchecked Sendable {
    private let fetcher: Fetcher
    private let lock = Lock()
    private var recorded: [String: Data] = [:]

    /// A recorder of what `fetcher` fetches.
    init(_ fetcher: Fetcher) {
        self.fetcher = fetcher
    }

    func fetch(_ url: URL, maximumLength: Int) async throws -> Data {
        let data = try await fetcher.fetch(url, maximumLength: maximumLength)
        locked { recorded[url.lastPathComponent] = data }
        return data
    }

    /// What was fetched, by name.
    var documents: [String: Data] { locked { recorded } }

    /// `body` holding the lock (synchronous, so never held across a suspension; NSLock's
    /// `withLock` needs macOS 14 / iOS 17).
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
