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

/// A tree entry as git's tree diff sees it: the object id and the canonical mode (git reads
/// every regular-file mode as 100644 or 100755, so an old tree's 100664 equals 100644).
struct TreeEntry: Hashable {
    var id: ObjectID
    var mode: UInt32

    static let directoryMode: UInt32 = 0o040000

    var isTree: Bool { mode == TreeEntry.directoryMode }

    /// git's `canon_mode`.
    static func canonical(_ mode: UInt32) -> UInt32 {
        switch mode & 0o170000 {
        case 0o100000: return mode & 0o100 != 0 ? 0o100755 : 0o100644
        case 0o120000: return 0o120000
        case 0o040000: return 0o040000
        default: return 0o160000
        }
    }
}
