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

/// Where a build version comes from: the repository's revision, or `VERSIONSTAMP_VERSION`
/// in the environment (a build from a source tarball), which replaces the repository entirely.
///
/// A context loaded from a repository reads lazily: `render` computes only the facts its
/// format uses (no describe, short id or dirty check for `{count}`). `{count}` is the build
/// number: the commit count (or the CI's number) plus the ``buildNumber`` offset.
public struct VersionContext: Sendable {
    /// The value of `VERSIONSTAMP_VERSION` when set: rendered as-is, whatever the format.
    public var override: String?
    /// How `{count}` becomes the build number (offset, CI variable).
    public private(set) var buildNumber = BuildNumber()
    /// The CI's number read from ``BuildNumber/environmentVariable`` when it was set.
    private var assignedBuildNumber: Int?
    private var fixedRevision: RevisionInfo?
    private var reader: RevisionReader?

    /// A context with a known revision (or an override); nothing is read from a repository.
    /// `{count}` renders `revision.count` plus `buildNumber`'s offset.
    public init(revision: RevisionInfo?, override: String?, buildNumber: BuildNumber = BuildNumber()) {
        self.fixedRevision = revision
        self.override = override
        self.buildNumber = buildNumber
    }

    /// A context reading HEAD through `reader`; `{count}` is the build number `buildNumber`
    /// gives, its CI variable read from `environment`. Throws when that variable holds
    /// anything but a non-negative integer.
    public init(
        reader: RevisionReader, buildNumber: BuildNumber = BuildNumber(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.reader = reader
        self.buildNumber = buildNumber
        self.assignedBuildNumber = try buildNumber.assignedNumber(in: environment)
    }

    /// Loads the context: `VERSIONSTAMP_VERSION` if set in `environment`, otherwise the
    /// repository discovered from `repository` (like `git -C`), or the current directory,
    /// read over the history `query` selects (its paths relative to `repository`), with its
    /// history answers remembered where `caching` says (`--cache-dir`).
    /// Throws when there is no repository, it is a shallow clone, libgit2 cannot read it
    /// (an unsupported extension), it has no commits, a path lies outside it, or the build
    /// number's CI variable is not an integer.
    public static func load(
        repository: String?, environment: [String: String],
        query: RevisionQuery = RevisionQuery(),
        buildNumber: BuildNumber = BuildNumber(),
        caching: HistoryCaching = .inGitDirectory
    ) throws -> VersionContext {
        if let value = environment["VERSIONSTAMP_VERSION"] {
            return VersionContext(revision: nil, override: value, buildNumber: buildNumber)
        }
        let reader = try RevisionReader(
            discoveringFrom: repository, environment: environment, query: query, caching: caching)
        return try VersionContext(reader: reader, buildNumber: buildNumber, environment: environment)
    }

    /// The revision of HEAD with at least `requirements` filled in (every field by default),
    /// its `count` being the build number; nil when `VERSIONSTAMP_VERSION` replaces the
    /// repository. Throws what reading it met.
    public func revision(_ requirements: RevisionRequirements = .all) throws -> RevisionInfo? {
        var needed = requirements
        // The CI's number replaces the count: no need to walk the history for it.
        if assignedBuildNumber != nil { needed.remove(.count) }
        guard var info = try fixedRevision ?? reader?.revision(needed) else { return nil }
        if requirements.contains(.count) {
            info.count = try buildNumber.applied(to: assignedBuildNumber ?? info.count)
        }
        return info
    }

    /// The version for `format` (`{count}` …, see `VersionFormat`), with `{dirty}` rendered
    /// as `dirtyMarker`. With `VERSIONSTAMP_VERSION` set, exactly that value, whatever the format.
    /// Throws when `{version}` or `{prerelease}` is used and no (matching) tag names a version.
    public func render(_ format: String, dirtyMarker: String = "M") throws -> String {
        if let override { return override }
        let parsed = try VersionFormat(format)
        guard let revision = try revision(parsed.requirements) else {
            throw VersionStampError(
                .noRevision, message: "no revision to render (no repository and no VERSIONSTAMP_VERSION)")
        }
        if parsed.tokens.contains(where: \.needsReleaseVersion) {
            _ = try releaseVersion(of: revision)
        }
        return parsed.render(revision, dirtyMarker: dirtyMarker)
    }

    /// The release version of the nearest (matching) tag of `revision`; throws when no tag
    /// is reachable or the nearest one holds no number.
    private func releaseVersion(of revision: RevisionInfo) throws -> ReleaseVersion {
        let pattern = reader?.query.tagPattern
        let matching = pattern.map { " matching '\($0)'" } ?? ""
        guard let tag = revision.tag else {
            throw VersionStampError(
                .noMatchingTag,
                message:
                    "{version} needs a tag\(matching) reachable from HEAD, and there is none; tag a release (git tag v1.0.0)\(pattern == nil ? "" : " or change --tag-pattern")"
            )
        }
        guard let release = ReleaseVersion(tag: tag) else {
            throw VersionStampError(
                .noMatchingTag,
                message:
                    "{version} needs a version number in the nearest tag\(matching), and '\(tag)' has none; choose release tags with --tag-pattern (such as 'v[0-9]*')"
            )
        }
        return release
    }
}
