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

/// Where a patch goes: bytes are gathered and handed to `write` in large chunks.
final class PatchOutput {
    /// Bytes not yet handed on.
    var buffer: [UInt8] = []
    private let write: (UnsafeRawBufferPointer) throws -> Void
    private let chunk = 1 << 18

    init(_ write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.write = write
        buffer.reserveCapacity(chunk + 4096)
    }

    /// Hands the buffer on when it has grown past a chunk.
    @inline(__always)
    func flushIfNeeded() throws {
        if buffer.count >= chunk { try flush() }
    }

    /// Hands everything on.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends text.
    func append(_ text: String) { buffer.append(contentsOf: text.utf8) }
}

/// Statements held back while a table is merged (its updates and its inserts, written after
/// its deletes): in memory up to a chunk, then in an anonymous temporary file, so memory
/// stays bounded whatever the table's size.
final class SpillBuffer {
    /// Bytes not yet spilled.
    var buffer: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    private let chunk = 1 << 20

    deinit { if let file { fclose(file) } }

    @inline(__always)
    func spillIfNeeded() throws {
        if buffer.count >= chunk { try spill() }
    }

    private func spill() throws {
        if file == nil {
            guard let created = tmpfile() else { throw SpillError(errno: errno) }
            file = created
        }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == buffer.count else { throw SpillError(errno: errno) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Moves everything held into `output`, in order, and empties the buffer.
    func drain(into output: PatchOutput) throws {
        if let file {
            try output.flush()
            guard fflush(file) == 0 else { throw SpillError(errno: errno) }
            rewind(file)
            var chunk = [UInt8](repeating: 0, count: 1 << 18)
            while true {
                let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if count == 0 { break }
                output.buffer.append(contentsOf: chunk[0..<count])
                try output.flush()
            }
            fclose(file)
            self.file = nil
        }
        output.buffer.append(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
        try output.flushIfNeeded()
    }
}

/// A temporary file for held-back statements could not be written.
struct SpillError: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { "cannot write a temporary file: \(String(cString: strerror(errno)))" }
}
