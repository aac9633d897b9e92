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

/// Independent pieces of a publish (compressing the whole database, making each patch, proving
/// each) run on every core: each in a directory of its own, with connections of its own.
enum ConcurrentWork {
    /// `body(0)` … `body(count - 1)`, run concurrently; their results in index order. When any
    /// throws, the error of the lowest index is thrown (the same one whatever the timing),
    /// after every piece has ended.
    static func map<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
        let results = UnsafeMutableBufferPointer<Result<T, Error>?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results[index] = Result { try body(index) }
        }
        // ConcurrentPerform returns after body ran for every index, so every result is set.
        // swift-format-ignore: NeverForceUnwrap
        return try results.map { try $0!.get() }
    }
}
