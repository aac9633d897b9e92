import FileSystemKit
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
import LayeredDatabase

/// A compressor fed piece by piece: ``append(_:to:)`` and then ``finish(to:)`` hand each
/// compressed piece to `sink`; ``compress(fileAt:to:)`` runs it over a file.
package final class PieceCompressor<Codec: CompressingCodec> {
    private let codec: Codec
    private let output = PieceBuffer()

    /// A compressor over `codec`, freshly started.
    package init(_ codec: Codec) {
        self.codec = codec
    }

    /// Compresses `input`, handing what it produces to `sink`.
    package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !input.isEmpty else { return }
        try run(input, finishing: false, sink)
    }

    /// Ends the stream, handing its last bytes to `sink`.
    package func finish(to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try run(output.piece(0), finishing: true, sink)
    }

    /// Compresses the file at `source` into `destination` (created or truncated), read and
    /// written in pieces; returns its length. `source` (a database, or a patch) is read through
    /// SQLite's VFS (`DatabaseFile`): a publish compresses a release while its diffs hold
    /// SQLite's locks on the same file, which a descriptor closed here would drop.
    package func compress(fileAt source: String, to destination: String) throws -> Int64 {
        let descriptor = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        guard descriptor >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(descriptor) }
        var written: Int64 = 0
        let write: (UnsafeRawBufferPointer) throws -> Void = { bytes in
            let code = POSIXFile.writeAll(descriptor, bytes)
            guard code == 0 else { throw FileSystemError(.write, path: destination, code: code) }
            written += Int64(bytes.count)
        }
        try DatabaseFile.forEachChunk(ofFileAt: source) { try append($0, to: write) }
        try finish(to: write)
        return written
    }

    private func run(
        _ input: UnsafeRawBufferPointer, finishing: Bool, _ sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        codec.take(input)
        while true {
            let step = try codec.step(into: output.start, capacity: PieceBuffer.capacity, finishing: finishing)
            if step.written > 0 { try sink(output.piece(step.written)) }
            if step.done { return }
        }
    }
}
