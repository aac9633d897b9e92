#if canImport(FoundationEssentials) && os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

/// A lock with a condition to wait on, with NSCondition's `lock()`, `unlock()`, `wait()` and
/// `broadcast()`: NSCondition on Apple platforms, a `pthread_mutex_t` and a `pthread_cond_t`
/// elsewhere (NSCondition is Foundation's, not FoundationEssentials').
package final class Condition: @unchecked Sendable {
    #if canImport(FoundationEssentials) && os(Linux)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits, the lock held, until a broadcast (or a spurious wake-up: wait in a loop).
    package func wait() { pthread_cond_wait(condition, mutex) }
    package func broadcast() { pthread_cond_broadcast(condition) }
    #else
    private let base = NSCondition()

    package init() {}

    package func lock() { base.lock() }
    package func unlock() { base.unlock() }
    /// Waits, the lock held, until a broadcast (or a spurious wake-up: wait in a loop).
    package func wait() { base.wait() }
    package func broadcast() { base.broadcast() }
    #endif
}
