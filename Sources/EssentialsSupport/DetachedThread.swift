#if canImport(FoundationEssentials) && os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

/// A thread of its own for a long job (parsing beside an import, hashing beside a diff):
/// Foundation's `Thread` on Apple platforms, a detached POSIX thread elsewhere (`Thread` is
/// Foundation's, not FoundationEssentials').
package enum DetachedThread {
    /// Starts `body` on a new thread, named `name` for debuggers on Apple platforms (Swift's
    /// Glibc module does not declare `pthread_setname_np`), and with a stack of `stackSize` bytes when given (the system's default otherwise), and
    /// returns at once.
    package static func start(name: String? = nil, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        #if canImport(FoundationEssentials) && os(Linux)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, box)
        // pthread_create fails only when the system is out of threads or memory: as Thread
        // does then, stop rather than go on without the job.
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
        #else
        let thread = Thread(block: body)
        if let name { thread.name = name }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
        #endif
    }

    #if canImport(FoundationEssentials) && os(Linux)
    /// The closure handed to the new thread.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    #endif
}
