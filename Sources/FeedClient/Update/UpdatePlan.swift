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

/// What a check found: nothing new, or the release to install and the cheapest way from the
/// database in effect to it (a chain of patches or the whole file), with its byte count.
public struct UpdatePlan: Equatable, Sendable {
    /// The `user_version` of the database in effect when the check ran.
    public let userVersionInEffect: Int64
    /// The release to install, or nil when nothing is new.
    public let release: DatabaseVersion?
    /// The files to download and install, in order: patches, each applying to the previous
    /// one's result, or one whole database. Empty when nothing is new.
    public let steps: [UpdateStep]
    /// The releases newer than ``release`` (newer than the database in effect when nothing is
    /// new) that this client is not offered, newest first, each with why: its channel, its data
    /// formats or its rollout. Empty when the feed has nothing newer.
    public let withheld: [WithheldRelease]
    /// Whether the feed's root raised its data epoch (``DataEpoch``) above the one the installed
    /// update came under: that update (data such as a leaked key published) is removed before
    /// the steps, which start from the bundled database, so ``release`` may have a lower
    /// `user_version` than ``userVersionInEffect``. With no steps, the bundled database is then
    /// in effect.
    public let resetsData: Bool
    /// The identity of the metadata this plan was made from (the verified timestamp's SHA-256).
    let metadataIdentity: String
    /// The trusted root's data epoch.
    let dataEpoch: Int64

    /// Whether there is nothing to install (nor to remove).
    public var isNothingNew: Bool { steps.isEmpty && !resetsData }
    /// Whether the plan installs patches (false: the whole database, or nothing).
    public var usesPatches: Bool { steps.first?.facts.kind == .patch }
    /// The compressed bytes to download, as the signed metadata says (at most `Int64.max`).
    public var byteCount: Int64 {
        steps.reduce(0) { total, step in
            let sum = total.addingReportingOverflow(step.length)
            return sum.overflow ? .max : sum.partialValue
        }
    }

    init(
        userVersionInEffect: Int64, release: DatabaseVersion?, steps: [UpdateStep], withheld: [WithheldRelease] = [],
        metadataIdentity: String, resetsData: Bool = false, dataEpoch: Int64 = 0
    ) {
        self.userVersionInEffect = userVersionInEffect
        self.release = release
        self.steps = steps
        self.withheld = withheld
        self.metadataIdentity = metadataIdentity
        self.resetsData = resetsData
        self.dataEpoch = dataEpoch
    }
}
