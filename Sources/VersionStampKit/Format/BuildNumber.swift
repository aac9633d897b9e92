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

/// What `{count}` renders as a build number: the commit count, or the number a CI system
/// assigned (`--build-number-env CI_BUILD_NUMBER`), plus an offset (`--offset N`).
///
/// App Store Connect refuses a `CFBundleVersion` not greater than the last upload: a team
/// moving from hand-made numbers to commit counts adds an offset so the numbers keep rising;
/// a CI system's own run number can replace the count (Xcode Cloud's `CI_BUILD_NUMBER`,
/// GitHub Actions' `GITHUB_RUN_NUMBER`). The offset applies to either.
public struct BuildNumber: Equatable, Sendable {
    /// Added to the count (or the CI's number); may be negative, the result may not.
    public var offset: Int
    /// The environment variable whose value replaces the commit count when it is set.
    public var environmentVariable: String?

    /// A build number of `offset` plus the commit count, or plus the integer in
    /// `environmentVariable` when that is set.
    public init(offset: Int = 0, environmentVariable: String? = nil) {
        self.offset = offset
        self.environmentVariable = environmentVariable
    }

    /// The CI's number: the integer in ``environmentVariable`` when it is set in `environment`,
    /// nil when there is no such variable. Throws when it is set to anything but a
    /// non-negative integer (an empty value included).
    public func assignedNumber(in environment: [String: String]) throws -> Int? {
        guard let name = environmentVariable, let value = environment[name] else { return nil }
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(value)
        else {
            throw VersionStampError(
                .invalidBuildNumber,
                message:
                    "--build-number-env \(name): the variable holds '\(value)', not a non-negative integer; set it to the build number (or unset it to use the commit count)"
            )
        }
        return number
    }

    /// `base` (the commit count or the CI's number) plus ``offset``; throws when the result
    /// would be negative or overflow.
    public func applied(to base: Int) throws -> Int {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, sum >= 0 else {
            throw VersionStampError(
                .invalidBuildNumber,
                message:
                    "--offset \(offset) added to \(base) gives \(overflow ? "an overflow" : String(sum)); a build number must be a non-negative integer"
            )
        }
        return sum
    }
}
