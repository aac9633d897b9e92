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

extension UpdateEvent: CustomStringConvertible {
    /// The event in words, as an app may log or show it: `checking the feed`, `nothing new:
    /// user_version 2 is in effect`, `planned: user_version 1 -> 2: 1 patch, 282 bytes`,
    /// `downloading PATH: 100 of 282 bytes`, `installing PATH`, `installed PATH: user_version 2`.
    public var description: String {
        switch self {
        case .checking:
            return "checking the feed"
        case .nothingNew(let userVersion):
            return "nothing new: user_version \(userVersion) is in effect"
        case .planned(let plan):
            return "planned: \(plan)"
        case .downloading(let target, let completedBytes, let totalBytes):
            return "downloading \(target): \(completedBytes) of \(totalBytes) \(totalBytes == 1 ? "byte" : "bytes")"
        case .installing(let target):
            return "installing \(target)"
        case .installed(let target, let userVersion):
            return "installed \(target): user_version \(userVersion)"
        }
    }
}
