#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the updater gets bytes from: a transport (HTTP, files, a test double). It must never return more
/// than `maximumLength` bytes, and should stop reading as soon as more arrive. Async, so that a network
/// transport waits without holding a thread, and the task's cancellation reaches it.
public protocol Fetcher: Sendable {
    /// The bytes at `url`, at most `maximumLength` of them. Throws `FetchError.notFound` for a missing file
    /// (HTTP 403 or 404), `FetchError.tooLarge` past the cap, and any other error for other failures.
    func fetch(_ url: URL, maximumLength: Int) async throws -> Data
}

/// Fetches metadata documents.
public typealias MetadataFetcher = Fetcher
/// Fetches targets.
public typealias TargetFetcher = Fetcher

/// What a fetcher reports that the updater acts on.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server has no such file (HTTP 403 or 404): the end of the root chain, or a missing document.
    case notFound(url: String)
    /// The answer is longer than the cap; nothing past the cap was accepted.
    case tooLarge(url: String, limit: Int)

    public var description: String {
        switch self {
        case .notFound(let url): return "\(url): not found"
        case .tooLarge(let url, let limit): return "\(url): more than \(limit) bytes"
        }
    }
}
