import Foundation

/// One `{token}` of a version format.
public enum VersionToken: String, CaseIterable, Sendable {
    case count, sha, short, dirty, describe, tag, distance, branch, date, timestamp

    /// What the token means, for `--help` and error messages.
    public var summary: String {
        switch self {
        case .count: return "commits reachable from HEAD (git rev-list --count HEAD)"
        case .sha: return "full commit id of HEAD (git rev-parse HEAD)"
        case .short: return "abbreviated commit id (git rev-parse --short HEAD)"
        case .dirty: return "the dirty marker when tracked files differ from HEAD, else empty"
        case .describe: return "git describe --tags --long --always --dirty"
        case .tag: return "nearest tag (git describe --tags), empty when none"
        case .distance: return "commits since that tag, {count} when there is no tag"
        case .branch: return "branch name, HEAD when detached (git rev-parse --abbrev-ref HEAD)"
        case .date: return "committer date of HEAD, UTC YYYYMMDD"
        case .timestamp: return "committer date of HEAD, Unix seconds"
        }
    }

    /// A help text listing every token, one a line.
    public static var helpText: String {
        let lines = allCases.map { token -> String in
            let name = "{\(token.rawValue)}"
            return "  " + name.padding(toLength: 12, withPad: " ", startingAt: 0) + token.summary
        }
        return (lines + ["  {{ and }}   a literal { and }"]).joined(separator: "\n")
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
        case .distance: return .nearestTag  // the count only when there is no tag (read then)
        case .branch: return .branch
        case .date, .timestamp: return .commitTime
        }
    }
}

/// Which facts about HEAD a format needs; the reader computes only these.
public struct RevisionRequirements: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let count = RevisionRequirements(rawValue: 1 << 0)
    public static let sha = RevisionRequirements(rawValue: 1 << 1)
    public static let short = RevisionRequirements(rawValue: 1 << 2)
    public static let dirty = RevisionRequirements(rawValue: 1 << 3)
    public static let describe = RevisionRequirements(rawValue: 1 << 4)
    public static let branch = RevisionRequirements(rawValue: 1 << 5)
    public static let commitTime = RevisionRequirements(rawValue: 1 << 6)
    public static let all: RevisionRequirements = [.count, .sha, .short, .dirty, .describe, .branch, .commitTime]
}

/// A parsed version format such as `r{count}{dirty}`.
///
/// Tokens are `{name}` (see `VersionToken`); `{{` and `}}` stand for literal braces. Any other
/// text is copied as is. An unknown token, an unclosed `{` or a lone `}` is an error.
public struct VersionFormat: Equatable, Sendable {
    /// A piece of a format: literal text or a token.
    public enum Segment: Equatable, Sendable {
        case literal(String)
        case token(VersionToken)
    }

    /// The format as written.
    public let source: String
    /// The literal text and tokens, in order.
    public let segments: [Segment]

    /// Parses `source`; throws naming an unknown token and listing the valid ones.
    public init(_ source: String) throws {
        self.source = source
        var segments: [Segment] = []
        var literal = ""
        var index = source.startIndex
        func flush() {
            if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
        }
        while index < source.endIndex {
            let character = source[index]
            let next = source.index(after: index)
            if character == "{" {
                if next < source.endIndex, source[next] == "{" {
                    literal.append("{")
                    index = source.index(after: next)
                    continue
                }
                guard let close = source[next...].firstIndex(of: "}") else {
                    throw VersionStampError(message: "format '\(source)': unclosed '{' (write '{{' for a literal brace)")
                }
                let name = String(source[next..<close])
                guard let token = VersionToken(rawValue: name) else {
                    let valid = VersionToken.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                    throw VersionStampError(message: "format '\(source)': unknown token '{\(name)}'; valid tokens: \(valid) ('{{' and '}}' for literal braces)")
                }
                flush()
                segments.append(.token(token))
                index = source.index(after: close)
            } else if character == "}" {
                guard next < source.endIndex, source[next] == "}" else {
                    throw VersionStampError(message: "format '\(source)': lone '}' (write '}}' for a literal brace)")
                }
                literal.append("}")
                index = source.index(after: next)
            } else {
                literal.append(character)
                index = next
            }
        }
        flush()
        self.segments = segments
    }

    /// The tokens used, in order.
    public var tokens: [VersionToken] {
        segments.compactMap { if case .token(let token) = $0 { return token } else { return nil } }
    }

    /// The facts about HEAD this format needs.
    public var requirements: RevisionRequirements {
        tokens.reduce(into: []) { $0.formUnion($1.requirements) }
    }

    /// The text for `revision`, with `{dirty}` rendered as `dirtyMarker`.
    public func render(_ revision: RevisionInfo, dirtyMarker: String = "M") -> String {
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text): output += text
            case .token(let token): output += Self.value(of: token, in: revision, dirtyMarker: dirtyMarker)
            }
        }
        return output
    }

    /// The text of one token.
    static func value(of token: VersionToken, in revision: RevisionInfo, dirtyMarker: String) -> String {
        switch token {
        case .count: return String(revision.count)
        case .sha: return revision.sha
        case .short: return revision.short
        case .dirty: return revision.isDirty ? dirtyMarker : ""
        case .describe: return revision.describe
        case .tag: return revision.tag ?? ""
        case .distance: return String(revision.distance)
        case .branch: return revision.branch
        case .date: return utcDate(revision.commitTime)
        case .timestamp: return String(revision.commitTime)
        }
    }

    /// `YYYYMMDD` of Unix time `seconds`, in UTC.
    static func utcDate(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }
}
