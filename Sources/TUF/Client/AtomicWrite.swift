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

/// Writes a file through FileSystemKit, the package's one file-system layer: a temporary file beside it,
/// synced (`F_FULLFSYNC` on Darwin), renamed over it, the directory synced; the old file or the new, never
/// a mix. Its errors become `TUFError.storage` naming the file.
enum AtomicWrite {
    static func write(_ data: Data, to destination: URL) throws {
        do {
            try AtomicFile.replace(destination.path, with: data, tag: "tuf")
        } catch {
            throw TUFError.storage(path: destination.path, reason: "\(error)")
        }
    }
}
