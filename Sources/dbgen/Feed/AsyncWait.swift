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
import Dispatch

/// The synchronous commands' way into the async feed client and what fetches through it (`fetch`,
/// `feed verify`, `feed pull`, `publish --against`): the body runs in a detached task on Swift's
/// cooperative pool while the command's own thread (never a pool thread) waits for its result.
enum AsyncWait {
    /// Runs `body` in a detached task and waits for its result.
    static func result<T: Sendable>(of body: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task.detached {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        // The task stored a result before it signalled.
        return box.result ?? .failure(CancellationError())
    }
}

/// The result a detached task hands to the waiting command (written before the semaphore
/// is signalled, read after).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
