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

extension FileManager {
    /// Whether what is at `path` (links followed) is a directory; nil when nothing is there.
    /// `fileExists(atPath:isDirectory:)` takes an `ObjCBool` in Foundation and a `Bool` in
    /// FoundationEssentials; this reads the same in both.
    package func isDirectory(atPath path: String) -> Bool? {
        #if canImport(FoundationEssentials) && os(Linux)
        var isDirectory = false
        #else
        var isDirectory: ObjCBool = false
        #endif
        guard fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        #if canImport(FoundationEssentials) && os(Linux)
        return isDirectory
        #else
        return isDirectory.boolValue
        #endif
    }
}

extension FileManager {
    /// The size in bytes of what is at `path` (`attributesOfItem`'s `.size`: an NSNumber in
    /// Foundation, a UInt in FoundationEssentials); 0 when it has none.
    ///
    /// - Throws: what `attributesOfItem(atPath:)` throws (nothing there, no permission).
    package func sizeOfItem(atPath path: String) throws -> Int64 {
        let size = try attributesOfItem(atPath: path)[.size]
        #if canImport(FoundationEssentials) && os(Linux)
        return (size as? UInt).map { Int64(clamping: $0) } ?? (size as? Int).map(Int64.init) ?? 0
        #else
        return (size as? NSNumber)?.int64Value ?? 0
        #endif
    }
}
