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

/// A release newer than what a check chose that this client is not offered, and every reason
/// why: what an app shows (or logs) when ``UpdatePlan/isNothingNew`` although the feed has
/// newer data.
///
/// ```swift
/// let plan = try await updater.check()
/// for release in plan.withheld {
///     log("user_version \(release.release.userVersion) not offered: \(release.reasons.map(\.description))")
/// }
/// ```
public struct WithheldRelease: Equatable, Sendable {
    /// The release (`user_version` and content hash).
    public let release: DatabaseVersion
    /// Why it is not offered: one entry per gate it fails (never empty).
    public let reasons: [WithholdingReason]

    /// A withheld release.
    public init(release: DatabaseVersion, reasons: [WithholdingReason]) {
        self.release = release
        self.reasons = reasons
    }
}
