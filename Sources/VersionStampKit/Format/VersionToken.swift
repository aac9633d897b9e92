import Foundation

/// One `{token}` of a version format.
public enum VersionToken: String, CaseIterable, Sendable {
    case count, sha, short, dirty, describe, tag, distance, branch, date, timestamp, version, prerelease

    /// What the token means, for `--help` and error messages.
    public var summary: String {
        switch self {
        case .count: return "commits reachable from HEAD (git rev-list --count HEAD), or the build number"
        case .sha: return "full commit id of HEAD (git rev-parse HEAD)"
        case .short: return "abbreviated commit id (git rev-parse --short HEAD)"
        case .dirty: return "the dirty marker when tracked files differ from HEAD, else empty"
        case .describe: return "git describe --tags --long --always --dirty"
        case .tag: return "nearest tag (git describe --tags), empty when none"
        case .distance: return "commits since that tag, {count} when there is no tag"
        case .branch: return "branch name, HEAD when detached (git rev-parse --abbrev-ref HEAD)"
        case .date: return "committer date of HEAD, UTC YYYYMMDD"
        case .timestamp: return "committer date of HEAD, Unix seconds"
        case .version: return "nearest tag's version: v2.0.0-beta.1 gives 2.0.0 (no tag: an error)"
        case .prerelease: return "what follows that version: v2.0.0-beta.1 gives beta.1"
        }
    }

    /// True for the tokens that need a release version parsed from the nearest tag.
    var needsReleaseVersion: Bool { self == .version || self == .prerelease }

    /// A help text listing every token, one a line.
    public static var helpText: String {
        let lines = allCases.map { token -> String in
            let name = "{\(token.rawValue)}"
            return "  " + name.padding(toLength: 14, withPad: " ", startingAt: 0) + token.summary
        }
        return (lines + ["  {{ and }}     a literal { and }"]).joined(separator: "\n")
    }

    /// The revision facts the token needs (so nothing else is computed).
    var requirements: RevisionRequirements {
        switch self {
        case .count: return .count
        case .sha: return .sha
        case .short: return .short
        case .dirty: return .dirty
        case .describe: return [.describe, .short, .dirty]
        case .tag: return .describe
        case .distance: return [.describe, .count]
        case .branch: return .branch
        case .date, .timestamp: return .commitTime
        case .version, .prerelease: return .describe
        }
    }
}
