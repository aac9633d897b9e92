/// One `{token}` of a version format, and the table that says what each one is.
///
/// `entry` is the one place a token is described: `--help` (``helpText``, ``list``), the
/// generated files' field names and doc comments (`GeneratedVersionFile`) come from it, and a
/// test checks the README's token list and the VersionTokens article against it. Adding a
/// token is a case, its entry, and its value (`VersionFormat`'s rendering, its
/// `requirements`, its generated field's value): the `switch`es make the compiler ask for each.
public enum VersionToken: String, CaseIterable, Sendable {
    case count, sha, short, dirty, describe, tag, distance, branch, date, timestamp, version, prerelease

    /// A token's row of the table.
    struct Entry {
        /// What the token means, for `--help` and error messages.
        var summary: String
        /// The name of its field in the generated files (`GeneratedVersionFile`).
        var field: String
        /// The doc comment of that field.
        var fieldDoc: String
    }

    /// The table: every token's description.
    var entry: Entry {
        switch self {
        case .count:
            return Entry(
                summary: "commits reachable from HEAD (git rev-list --count HEAD), or the build number",
                field: "count",
                fieldDoc: "The build number: commits reachable from HEAD (`git rev-list --count HEAD`), "
                    + "or the CI's number, plus the offset.")
        case .sha:
            return Entry(
                summary: "full commit id of HEAD (git rev-parse HEAD)",
                field: "sha", fieldDoc: "The commit id of HEAD.")
        case .short:
            return Entry(
                summary: "abbreviated commit id (git rev-parse --short HEAD)",
                field: "short", fieldDoc: "The abbreviated commit id of HEAD.")
        case .dirty:
            return Entry(
                summary: "the dirty marker when tracked files differ from HEAD, else empty",
                field: "dirty", fieldDoc: "Tracked files differed from HEAD.")
        case .describe:
            return Entry(
                summary: "git describe --tags --long --always --dirty",
                field: "describe", fieldDoc: "`git describe --tags --long --always --dirty`.")
        case .tag:
            return Entry(
                summary: "nearest tag (git describe --tags), empty when none",
                field: "tag", fieldDoc: "The nearest tag, empty when there is none.")
        case .distance:
            return Entry(
                summary: "commits since that tag, {count} when there is no tag",
                field: "distance", fieldDoc: "Commits since the nearest tag (the count when there is none).")
        case .branch:
            return Entry(
                summary: "branch name, HEAD when detached (git rev-parse --abbrev-ref HEAD)",
                field: "branch", fieldDoc: "The branch name, `HEAD` when detached.")
        case .date:
            return Entry(
                summary: "committer date of HEAD, UTC YYYYMMDD",
                field: "date", fieldDoc: "The committer date of HEAD, UTC, `YYYYMMDD`.")
        case .timestamp:
            return Entry(
                summary: "committer date of HEAD, Unix seconds",
                field: "timestamp", fieldDoc: "The committer time of HEAD, Unix seconds.")
        case .version:
            // `version` in the generated files is the stamped version; this token's field is `release`.
            return Entry(
                summary: "nearest tag's version: v2.0.0-beta.1 gives 2.0.0 (no tag: an error)",
                field: "release",
                fieldDoc: "The nearest tag's version number (`{version}`: v2.0.0-beta.1 gives 2.0.0), "
                    + "empty when no tag names one.")
        case .prerelease:
            return Entry(
                summary: "what follows that version: v2.0.0-beta.1 gives beta.1",
                field: "prerelease",
                fieldDoc: "What follows that number in the tag (`{prerelease}`: beta.1), "
                    + "empty when no tag names a version.")
        }
    }

    /// What the token means, for `--help` and error messages.
    public var summary: String { entry.summary }

    /// True for the tokens that need a release version parsed from the nearest tag.
    var needsReleaseVersion: Bool { self == .version || self == .prerelease }

    /// A help text listing every token, one a line.
    public static var helpText: String {
        let lines = allCases.map { token -> String in
            let name = "{\(token.rawValue)}"
            // Padded by hand: Foundation's `padding(toLength:…)` bridges to NSString, and this text
            // is built on every run (`print`'s configuration holds it).
            return "  " + name + String(repeating: " ", count: max(0, 14 - name.count)) + token.summary
        }
        return (lines + ["  {{ and }}     a literal { and }"]).joined(separator: "\n")
    }

    /// Every token in braces, comma-separated: `{count}, {sha}, …` (the `--format` help of `stamp`).
    public static var list: String {
        allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
    }

    /// The revision facts the token needs (so nothing else is computed).
    var requirements: RevisionRequirements {
        switch self {
        case .count: return .count
        case .sha: return .sha
        case .short: return .short
        case .dirty: return .dirty
        case .describe: return [.describe, .short, .dirty]
        case .tag: return .nearestTag
        case .distance: return .nearestTag // the count only when there is no tag (read then)
        case .branch: return .branch
        case .date, .timestamp: return .commitTime
        case .version, .prerelease: return .nearestTag
        }
    }
}
