/// Where a build version comes from: the repository's revision, or `VERSIONSTAMP_VERSION`
/// in the environment (a build from a source tarball), which replaces the repository entirely.
public struct VersionContext: Sendable {
    /// The revision of HEAD; nil when `VERSIONSTAMP_VERSION` overrides the repository.
    public var revision: RevisionInfo?
    /// The value of `VERSIONSTAMP_VERSION` when set: rendered as-is, whatever the format.
    public var override: String?

    public init(revision: RevisionInfo?, override: String?) {
        self.revision = revision
        self.override = override
    }

    /// Loads the context: `VERSIONSTAMP_VERSION` if set in `environment`, otherwise the
    /// repository discovered from `repository` (like `git -C`), or the current directory.
    public static func load(repository: String?, environment: [String: String]) throws -> VersionContext {
        if let value = environment["VERSIONSTAMP_VERSION"] {
            return VersionContext(revision: nil, override: value)
        }
        throw VersionStampError(message: "reading the repository is not implemented yet")
    }

    /// The version for `format` (`{count}` …), with `{dirty}` rendered as `dirtyMarker`.
    public func render(_ format: String, dirtyMarker: String = "M") throws -> String {
        if let override { return override }
        throw VersionStampError(message: "formatting is not implemented yet")
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
