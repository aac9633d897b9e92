import EssentialsSupport
import XCTest

/// Lock, Condition and DetachedThread do what NSLock, NSCondition and Thread did for the
/// libraries: exclusion, a wait that a broadcast ends, work on a thread of its own.
final class ConcurrencyTests: XCTestCase {
    /// A producer and a consumer on two threads hand 10,000 numbers over a one-slot queue.
    func testAConditionHandsValuesBetweenThreads() {
        final class Slot: @unchecked Sendable {
            let condition = Condition()
            var value: Int?
            var received: [Int] = []
            var done = false
        }
        let slot = Slot()
        let count = 10_000
        DetachedThread.start(stackSize: 1 << 20) {
            for number in 0..<count {
                slot.condition.lock()
                while slot.value != nil { slot.condition.wait() }
                slot.value = number
                slot.condition.broadcast()
                slot.condition.unlock()
            }
        }
        slot.condition.lock()
        while slot.received.count < count {
            while slot.value == nil { slot.condition.wait() }
            slot.received.append(slot.value ?? -1)
            slot.value = nil
            slot.condition.broadcast()
        }
        slot.condition.unlock()
        XCTAssertEqual(slot.received, Array(0..<count))
    }

    /// Four threads add to one counter under the lock: no increment is lost.
    func testALockExcludes() {
        final class Counter: @unchecked Sendable {
            let lock = Lock()
            var value = 0
            let finished = Condition()
            var threadsDone = 0
        }
        let counter = Counter()
        for _ in 0..<4 {
            DetachedThread.start {
                for _ in 0..<50_000 { counter.lock.withLock { counter.value += 1 } }
                counter.finished.lock()
                counter.threadsDone += 1
                counter.finished.broadcast()
                counter.finished.unlock()
            }
        }
        counter.finished.lock()
        while counter.threadsDone < 4 { counter.finished.wait() }
        counter.finished.unlock()
        XCTAssertEqual(counter.lock.withLock { counter.value }, 200_000)
    }
}
