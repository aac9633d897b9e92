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
                    throw VersionStampError(
                        .invalidFormat, message: "format '\(source)': unclosed '{' (write '{{' for a literal brace)")
                }
                let name = String(source[next..<close])
                guard let token = VersionToken(rawValue: name) else {
                    let valid = VersionToken.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                    throw VersionStampError(
                        .invalidFormat,
                        message:
                            "format '\(source)': unknown token '{\(name)}'; valid tokens: \(valid) ('{{' and '}}' for literal braces)"
                    )
                }
                flush()
                segments.append(.token(token))
                index = source.index(after: close)
            } else if character == "}" {
                guard next < source.endIndex, source[next] == "}" else {
                    throw VersionStampError(
                        .invalidFormat, message: "format '\(source)': lone '}' (write '}}' for a literal brace)")
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
        case .date: return UTCDate.day(of: revision.commitTime)
        case .timestamp: return String(revision.commitTime)
        case .version: return revision.tag.flatMap(ReleaseVersion.init(tag:))?.version ?? ""
        case .prerelease: return revision.tag.flatMap(ReleaseVersion.init(tag:))?.prerelease ?? ""
        }
    }
}

/// Calendar days of Unix times, in UTC: what `{date}` and the generated files' `date` hold.
enum UTCDate {
    /// `YYYYMMDD` of a committer time as git reads it (unsigned seconds): one beyond the
    /// system's `time_t` is formatted as 0, 1970-01-01, as git's `show_ident_date` does.
    static func day(of seconds: UInt64) -> String {
        day(of: Int64(exactly: seconds) ?? 0)
    }

    /// `YYYYMMDD` of Unix time `seconds`, in UTC (proleptic Gregorian calendar).
    static func day(of seconds: Int64) -> String {
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // Civil date from days since 1970-01-01 (proleptic Gregorian calendar).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(year, 4) + pad(month, 2) + pad(day, 2)
    }
}
