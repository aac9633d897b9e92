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

extension UpdatePlan: CustomStringConvertible {
    /// The plan in words, as an app may log it: `nothing new: user_version 2 is in effect`, or
    /// `user_version 1 -> 2: 1 patch, 282 bytes` (`2 patches`, `the whole database`), with
    /// `after a data reset` when the plan first removes the installed update.
    public var description: String {
        guard let release else {
            return resetsData
                ? "a data reset: the installed update is removed, the bundled database is in effect again"
                : "nothing new: user_version \(userVersionInEffect) is in effect"
        }
        let how =
            usesPatches
            ? (steps.count == 1 ? "1 patch" : "\(steps.count) patches") : "the whole database"
        let bytes = byteCount == 1 ? "1 byte" : "\(byteCount) bytes"
        let reset = resetsData ? " after a data reset" : ""
        return "user_version \(userVersionInEffect) -> \(release.userVersion)\(reset): \(how), \(bytes)"
    }
}
