#if canImport(FoundationEssentials) && os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

/// A mutual-exclusion lock with NSLock's `lock()` and `unlock()`: NSLock on Apple platforms, a
/// `pthread_mutex_t` elsewhere (NSLock is Foundation's, not FoundationEssentials').
package final class Lock: @unchecked Sendable {
    #if canImport(FoundationEssentials) && os(Linux)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    #else
    private let base = NSLock()

    package init() {}

    package func lock() { base.lock() }
    package func unlock() { base.unlock() }
    #endif

    /// Runs `body` holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
