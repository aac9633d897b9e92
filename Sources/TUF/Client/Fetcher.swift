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

/// Where the updater gets bytes from: a transport (HTTP, files, a test double). It must never return more
/// than `maximumLength` bytes, and should stop reading as soon as more arrive. Async, so that a network
/// transport waits without holding a thread, and the task's cancellation reaches it.
public protocol Fetcher: Sendable {
    /// The bytes at `url`, at most `maximumLength` of them. Throws `FetchError.notFound` for a missing file
    /// (HTTP 403 or 404), `FetchError.tooLarge` past the cap, and any other error for other failures.
    func fetch(_ url: URL, maximumLength: Int) async throws -> Data
}
