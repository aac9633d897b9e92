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

    /// The revision of HEAD with every field filled in; nil when `VERSIONSTAMP_VERSION`
    /// overrides the repository (or reading fails: use `revision(_:)` to see the error).
    public var revision: RevisionInfo? {
        get {
            if let fixedRevision { return fixedRevision }
            return try? reader?.revision(.all)
        }
        set { fixedRevision = newValue }
    }

    /// The revision of HEAD with at least `requirements` filled in; nil with an override.
    public func revision(_ requirements: RevisionRequirements) throws -> RevisionInfo? {
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
            throw VersionStampError(message: "no revision to render (no repository and no VERSIONSTAMP_VERSION)")
        }
        return parsed.render(revision, dirtyMarker: dirtyMarker)
    }
}

/// An error versionstamp reports: `PATH[:LINE]: error: MESSAGE` when it concerns a file.
public struct VersionStampError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String?
    public var line: Int?
    public var message: String

    public init(path: String? = nil, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        guard let path else { return "versionstamp: error: \(message)" }
        if let line { return "\(path):\(line): error: \(message)" }
        return "\(path): error: \(message)"
    }
}
