#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file-system call that failed: what was being done, the file it concerned and `errno`.
///
/// ``path`` is the file the caller named (the destination of a write, the source of a copy),
/// never the hidden temporary file beside it, so a message built from it means something to
/// the person who reads it. Each library turns it into its own error type.
package struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done when the call failed.
    package enum Operation: String, Sendable {
        case createTemporary = "create a temporary file beside it"
        case createDirectory = "create the directory"
        case open = "open"
        case read = "read"
        case write = "write"
        case sync = "sync"
        case rename = "rename"
        case link = "link"
        case lock = "lock"
    }

    /// What was being done.
    package var operation: Operation
    /// The file the caller named.
    package var path: String
    /// The `errno` the call left.
    package var code: Int32

    /// An error for `operation` on `path` that failed with `code`.
    package init(_ operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The system's text for ``code`` (`strerror`), such as "No space left on device".
    package var reason: String { String(cString: strerror(code)) }

    /// `PATH: OPERATION failed: REASON`.
    package var description: String { "\(path): \(operation.rawValue) failed: \(reason)" }
}
