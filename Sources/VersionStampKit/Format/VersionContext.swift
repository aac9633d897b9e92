/// Where a build version comes from: the repository's revision, or `VERSIONSTAMP_VERSION`
/// in the environment (a build from a source tarball), which replaces the repository entirely.
///
/// A context loaded from a repository reads lazily: `render` computes only the facts its
/// format uses (no describe, short id or dirty check for `{count}`).
public struct VersionContext: Sendable {
    /// The value of `VERSIONSTAMP_VERSION` when set: rendered as-is, whatever the format.
    public var override: String?
    private var fixedRevision: RevisionInfo?
    private var reader: RevisionReader?

    /// A context with a known revision (or an override); nothing is read from a repository.
    public init(revision: RevisionInfo?, override: String?) {
        self.fixedRevision = revision
        self.override = override
    }

    /// A context reading HEAD through `reader`.
    public init(reader: RevisionReader) {
        self.reader = reader
    }

    /// The revision of HEAD with at least `requirements` filled in (every field by default);
    /// nil when `VERSIONSTAMP_VERSION` replaces the repository. Throws what reading it met.
    public func revision(_ requirements: RevisionRequirements = .all) throws -> RevisionInfo? {
        if let fixedRevision { return fixedRevision }
        return try reader?.revision(requirements)
    }

    /// Loads the context: `VERSIONSTAMP_VERSION` if set in `environment`, otherwise the
    /// repository discovered from `repository` (like `git -C`), or the current directory.
    /// Throws when there is no repository, it is a shallow clone, libgit2 cannot read it
    /// (an unsupported extension) or it has no commits.
    public static func load(repository: String?, environment: [String: String]) throws -> VersionContext {
        if let value = environment["VERSIONSTAMP_VERSION"] {
            return VersionContext(revision: nil, override: value)
        }
        return VersionContext(reader: try RevisionReader(discoveringFrom: repository, environment: environment))
    }

    /// The version for `format` (`{count}` …, see `VersionFormat`), with `{dirty}` rendered
    /// as `dirtyMarker`. With `VERSIONSTAMP_VERSION` set, exactly that value, whatever the format.
    public func render(_ format: String, dirtyMarker: String = "M") throws -> String {
        if let override { return override }
        let parsed = try VersionFormat(format)
        guard let revision = try revision(parsed.requirements) else {
            throw VersionStampError(.noRevision, message: "no revision to render (no repository and no VERSIONSTAMP_VERSION)")
        }
        return parsed.render(revision, dirtyMarker: dirtyMarker)
    }
}
