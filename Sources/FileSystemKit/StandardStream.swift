#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing to the process's standard output and standard error with `write(2)`, every byte,
/// `EINTR` retried (FileHandle is Foundation's, not FoundationEssentials').
package enum StandardStream {
    /// Writes `bytes` to standard output.
    ///
    /// - Throws: ``FileSystemError`` (`write`, "standard output") when the stream is closed or
    ///   full, so that a command whose output is lost fails instead of reporting success.
    package static func writeOutput(_ bytes: some Sequence<UInt8>) throws {
        let code = Array(bytes).withUnsafeBytes { POSIXFile.writeAll(STDOUT_FILENO, $0) }
        guard code == 0 else { throw FileSystemError(.write, path: "standard output", code: code) }
    }

    /// Writes `text` to standard output (see ``writeOutput(_:)-(some Sequence<UInt8>)``).
    package static func writeOutput(_ text: String) throws {
        try writeOutput(text.utf8)
    }

    /// Everything on standard input up to its end.
    ///
    /// - Throws: ``FileSystemError`` (`read`, "standard input").
    package static func readInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(.read, path: "standard input", code: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Writes `text` to standard error. A failure is ignored: a diagnostic has nowhere else to go.
    package static func writeError(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { POSIXFile.writeAll(STDERR_FILENO, $0) }
    }
}
