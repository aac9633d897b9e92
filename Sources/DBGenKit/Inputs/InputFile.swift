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

/// A file read by a build (the schema script, an included script, a CSV file): where it is,
/// how to show it to the user, and its identity when it was read (for the up-to-date check).
struct InputFile: Codable, Hashable, Sendable {
    /// Absolute, standardized path.
    var path: String
    /// The path as the user would find it (relative to the current directory when given relatively).
    var displayPath: String
    var stamp: FileStamp?

    init(path: String, displayPath: String, stamp: FileStamp?) {
        self.path = path
        self.displayPath = displayPath
        self.stamp = stamp
    }
}

extension Array where Element == InputFile {
    /// The inputs that existed when they were read: what a depfile and the summary list
    /// (make stops at a prerequisite that does not exist). A file `readfile()` looked for and
    /// did not find stays in the fingerprint only, so its appearing makes the build run.
    var existing: [InputFile] { filter { $0.stamp != nil } }
}
