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

/// The build version as constants in a source file: Swift (`--swift`), JSON (`--json`) or
/// xcconfig (`--xcconfig`).
///
/// Every output holds `version` (the rendered format, or `VERSIONSTAMP_VERSION`) and the
/// revision's fields: count, sha, short, describe, tag, distance, branch, dirty, date (UTC
/// `YYYYMMDD`), timestamp, and the nearest tag's release and prerelease (``ReleaseVersion``).
/// `count` is the build number (offset and CI number applied).
///
/// When `VERSIONSTAMP_VERSION` replaces the repository there is no revision. The Swift enum
/// `BuildVersion` then says `hasRevision = false` and its revision fields hold 0, `""` and
/// `false`; its fields are never optional, so `"\(BuildVersion.count)"` prints a number in
/// every build. JSON has `null` for each unknown field, the xcconfig an empty value. Without a
/// reachable tag, `tag`, `release` and `prerelease` are `""` in Swift, `null` in JSON and empty
/// in the xcconfig.
///
/// The xcconfig also sets the settings Xcode's generated Info.plist reads:
/// `CURRENT_PROJECT_VERSION` (the build number, or `VERSIONSTAMP_VERSION`) and
/// `MARKETING_VERSION` (the nearest tag's ``ReleaseVersion``, left out when there is none).
public enum GeneratedVersionFile: String, CaseIterable, Sendable {
    case swift
    case json
    case xcconfig

    /// The name of the Swift enum that holds the constants.
    public static let swiftTypeName = "BuildVersion"
    /// The prefix of the xcconfig settings (`SHIPYARD_BUILD_VERSION`, …).
    public static let xcconfigPrefix = "SHIPYARD_BUILD_"

    /// The file's content for `version` and `context`.
    public func contents(version: String, context: VersionContext) throws -> String {
        let fields = try Fields(version: version, context: context)
        switch self {
        case .swift: return Self.swiftSource(fields)
        case .json: return try Self.json(fields)
        case .xcconfig: return try Self.xcconfig(fields)
        }
    }

    /// The values written, in order: `version`, then the revision's fields.
    struct Fields: Encodable {
        /// A field's value; nil members are unknown (no revision) or absent (no tag).
        enum Value {
            case string(String?)
            case integer(Int64?)
            case boolean(Bool?)
        }

        struct Field {
            var name: String
            var value: Value
            var doc: String
        }

        var fields: [Field]
        /// False when `VERSIONSTAMP_VERSION` replaced the repository: no field but `version` is known.
        var hasRevision: Bool
        /// Xcode's `CURRENT_PROJECT_VERSION`: the build number, or `VERSIONSTAMP_VERSION`.
        var buildNumber: String
        /// Xcode's `MARKETING_VERSION`: the nearest tag's release version, nil without one.
        var marketingVersion: String?

        init(version: String, context: VersionContext) throws {
            let revision = try context.revision(.all)
            if revision == nil && context.override == nil {
                throw VersionStampError(
                    .noRevision, message: "cannot read the revision of HEAD for the generated files")
            }
            hasRevision = revision != nil
            buildNumber = context.override ?? revision.map { String($0.count) } ?? ""
            let release = revision?.tag.flatMap(ReleaseVersion.init(tag:))
            marketingVersion = release?.version
            fields =
                [
                    Field(
                        name: "version", value: .string(version),
                        doc: "The stamped version (the format rendered, or VERSIONSTAMP_VERSION).")
                ]
                + Self.tokenOrder.map { token in
                    Field(
                        name: token.entry.field, value: Self.value(of: token, in: revision, release: release),
                        doc: token.entry.fieldDoc)
                }
        }

        /// The tokens whose fields follow `version`, in the order they are written.
        static let tokenOrder: [VersionToken] = [
            .count, .sha, .short, .describe, .tag, .distance, .branch, .dirty, .date, .timestamp, .version, .prerelease,
        ]

        /// The value of `token`'s field: nil (written as 0, `""`, `false`, `null` or empty)
        /// without a revision.
        private static func value(
            of token: VersionToken, in revision: RevisionInfo?,
            release: ReleaseVersion?
        ) -> Value {
            switch token {
            case .count: return .integer(revision.map { Int64($0.count) })
            case .sha: return .string(revision?.sha)
            case .short: return .string(revision?.short)
            case .describe: return .string(revision?.describe)
            case .tag: return .string(revision?.tag)
            case .distance: return .integer(revision.map { Int64($0.distance) })
            case .branch: return .string(revision?.branch)
            case .dirty: return .boolean(revision?.isDirty)
            case .date: return .string(revision.map { UTCDate.day(of: $0.commitTime) })
            case .timestamp: return .integer(revision.flatMap { Int64(exactly: $0.commitTime) })
            case .version: return .string(release?.version)
            case .prerelease: return .string(release?.prerelease)
            }
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// One JSON member per field, `null` for an unknown or absent value.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for field in fields {
                let key = Key(stringValue: field.name)
                switch field.value {
                case let .string(value): try container.encode(value, forKey: key)
                case let .integer(value): try container.encode(value, forKey: key)
                case let .boolean(value): try container.encode(value, forKey: key)
                }
            }
        }
    }

    private static func swiftSource(_ fields: Fields) -> String {
        var lines = [
            "// Generated by versionstamp \(VersionStampKit.version). Do not edit: it is rewritten on every build.",
            "",
            "/// The build version and the git revision it was built from.",
            "public enum \(swiftTypeName) {",
            "    /// True when the version was read from a git repository; false when VERSIONSTAMP_VERSION",
            "    /// replaced it (a build from a source tarball): then only `version` is known, and the other",
            "    /// fields hold 0, \"\" and false.",
            "    public static let hasRevision: Bool = \(fields.hasRevision)",
        ]
        for field in fields.fields {
            lines.append("")
            lines.append("    /// \(field.doc)")
            let (type, literal): (String, String)
            switch field.value {
            case let .string(value): (type, literal) = ("String", (value ?? "").swiftLiteral)
            case let .integer(value): (type, literal) = ("Int", String(value ?? 0))
            case let .boolean(value): (type, literal) = ("Bool", String(value ?? false))
            }
            lines.append("    public static let \(field.name): \(type) = \(literal)")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The fields as a JSON object, keys sorted (the same bytes for the same fields on every
    /// platform, so an unchanged version leaves the file untouched).
    private static func json(_ fields: Fields) throws -> String {
        let encoder = JSONEncoder()
        // Without escaping slashes, a branch name reads feature/x, not feature\/x.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(fields), as: UTF8.self) + "\n"
    }

    private static func xcconfig(_ fields: Fields) throws -> String {
        var lines = [
            "// Generated by versionstamp \(VersionStampKit.version). Do not edit: it is rewritten on every build.",
            "// Values other than \(xcconfigPrefix)VERSION are empty when VERSIONSTAMP_VERSION replaces the repository.",
        ]
        for field in fields.fields {
            let value: String
            switch field.value {
            case let .string(string): value = string ?? ""
            case let .integer(number): value = number.map(String.init) ?? ""
            case let .boolean(flag): value = flag.map { $0 ? "YES" : "NO" } ?? ""
            }
            lines.append("\(xcconfigPrefix)\(field.name.uppercased()) = \(try xcconfigValue(value, name: field.name))")
        }
        lines.append("")
        lines.append(
            "// The build settings Xcode's generated Info.plist reads: $(CURRENT_PROJECT_VERSION) and $(MARKETING_VERSION)."
        )
        lines.append("CURRENT_PROJECT_VERSION = \(try xcconfigValue(fields.buildNumber, name: "build number"))")
        if let marketing = fields.marketingVersion {
            lines.append("MARKETING_VERSION = \(try xcconfigValue(marketing, name: "marketing version"))")
        } else {
            lines.append("// MARKETING_VERSION is not set: no tag with a version number is reachable from HEAD.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `value` as an xcconfig value; a line break cannot be held.
    private static func xcconfigValue(_ value: String, name: String) throws -> String {
        if value.contains(where: { $0.isNewline }) {
            throw VersionStampError(
                .unrepresentableValue,
                message: "the \(name) value contains a line break, which an xcconfig file cannot hold")
        }
        // `//` starts a comment in an xcconfig value; `/$()/` is the usual way to keep it.
        var setting = value
        while setting.containsBytes(of: "//") { setting = setting.replacingBytes(of: "//", with: "/$()/") }
        return setting
    }
}

extension String {
    /// The string as a Swift string literal.
    var swiftLiteral: String {
        quoted { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : nil
        }
    }

    /// The string quoted for a report line, as a JSON string (`"r12"`, `"a\nb"`): control
    /// characters are visible and the value's ends are clear.
    var quotedForReport: String {
        quoted { scalar in
            guard scalar.value < 0x20 else { return nil }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// The string quoted with `\\`, `\"`, `\n`, `\r`, `\t` escaped; other characters as
    /// `escape` spells them (nil: as they are).
    private func quoted(escape: (Unicode.Scalar) -> String?) -> String {
        var out = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
