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

/// Why a ``DatabaseFileReader`` could not open or read its file.
package struct DatabaseFileReadError: Error, Equatable, CustomStringConvertible {
    /// What failed.
    package enum Operation: String, Sendable {
        case open, read
    }

    /// What failed.
    package let operation: Operation
    /// The file.
    package let path: String
    /// The `errno` value; 0 when a read found the file shorter than it was (cut while read).
    package let code: Int32

    /// An error.
    package init(_ operation: Operation, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// What went wrong, without the path: `strerror`'s text, or that the file was cut.
    package var reason: String {
        code == 0 ? "the file ended early (it changed while it was read)" : String(cString: strerror(code))
    }

    /// `cannot open PATH: REASON` or `cannot read PATH: REASON`.
    package var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }
}
