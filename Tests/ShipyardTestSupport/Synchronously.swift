import Foundation

/// Runs the async `body` to its end from synchronous test code, and returns what it returned or
/// throws what it threw: for fixtures whose tests are synchronous (a test method runs on XCTest's
/// own thread, never on Swift's cooperative pool, so waiting there cannot starve the task).
public func synchronously<T>(_ body: @escaping () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let state = UncheckedBox<(body: () async throws -> T, result: Result<T, Error>?)>((body, nil))
    Task.detached {
        let result: Result<T, Error>
        do { result = .success(try await state.value.body()) } catch { result = .failure(error) }
        state.value.result = result
        done.signal()
    }
    done.wait()
    guard let result = state.value.result else { throw CancellationError() }
    return try result.get()
}

/// A value handed to a task and read back after it signalled (the semaphore orders the accesses).
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
