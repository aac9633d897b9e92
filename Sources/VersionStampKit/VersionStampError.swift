/// An error versionstamp reports: what went wrong (``code``, for callers to match), where
/// (``path`` and ``line`` when it concerns a file) and a message saying what to do.
///
/// ```swift
/// do {
///     let context = try VersionContext.load(repository: nil, environment: environment)
/// } catch let error as VersionStampError where error.code == .shallowClone {
///     // fetch the full history, or fall back to VERSIONSTAMP_VERSION
/// }
/// ```
///
/// ``description`` is the line a command prints: `PATH[:LINE]: error: MESSAGE`, or
/// `versionstamp: error: MESSAGE` when no file is concerned.
public struct VersionStampError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of failure, for a caller to match.
    public enum Code: String, CaseIterable, Equatable, Sendable {
        // MARK: The command line

        /// Options that contradict each other or lack a value (a usage error, exit 64).
        case usage
        /// A key path with an empty component (`A::B`).
        case invalidKeyPath
        /// A version format with an unknown token or an unbalanced brace.
        case invalidFormat

        // MARK: The repository

        /// The directory where discovery starts does not exist.
        case noSuchDirectory
        /// No git repository at or above the starting directory.
        case notARepository
        /// The repository belongs to another user (git's "dubious ownership").
        case repositoryOwnership
        /// The repository uses an extension libgit2 cannot read (`extensions.worktreeConfig`, …).
        case unsupportedExtension
        /// A shallow clone: its history is incomplete.
        case shallowClone
        /// HEAD has no commit yet.
        case noCommits
        /// A `--path` that lies outside the repository's work tree.
        case pathOutsideRepository
        /// A `--path` that names nothing in HEAD's tree (it would count no commit).
        case pathNotInHead
        /// No tag (matching the tag pattern) is reachable, but the format needs `{version}`.
        case noMatchingTag
        /// The variable named by `--build-number-env` does not hold a non-negative integer.
        case invalidBuildNumber
        /// Reading the repository failed: libgit2 reported an error, or an object of the history
        /// cannot be read as what it should be (`git fsck` tells more).
        case gitFailure
        /// Neither a repository nor `VERSIONSTAMP_VERSION` gave a revision.
        case noRevision

        // MARK: The files

        /// The file does not exist, is a directory or cannot be read.
        case fileAccess
        /// Not a well-formed property list (XML or binary); ``VersionStampError/line`` says where.
        case malformedPlist
        /// A plist in a form versionstamp does not edit (UTF-16, a binary version other than `bplist00`).
        case unsupportedPlist
        /// The plist declares or uses an entity (refused, never expanded).
        case entityDeclaration
        /// A key path that names no value.
        case missingKey
        /// A key path that names a value other than a string.
        case notAString
        /// No string contains the placeholder (placeholder mode).
        case noPlaceholder
        /// Neither the placeholder nor `CFBundleVersion` is in the file (automatic mode).
        case neitherPlaceholderNorKey
        /// A `CFBundleVersion` / `CFBundleShortVersionString` value against the App Store rule.
        case appStoreRule
        /// The value to replace is an Xcode build-setting reference (`$(NAME)`); `--force` overrides.
        case buildSettingReference
        /// A value the output format cannot hold (a control character in XML, a line break in an xcconfig).
        case unrepresentableValue
        /// Writing a file failed; the old file is left as it was.
        case writeFailed
        /// A configuration file (`versionstamp.json`) that is not a JSON object of known options
        /// with values of the right types.
        case invalidConfiguration
        /// A self-check failed; nothing was written.
        case internalError

        /// True for errors in how the command was called (exit status 64).
        public var isUsage: Bool { self == .usage || self == .invalidKeyPath }
    }

    /// What went wrong.
    public var code: Code
    /// The file (or directory) concerned, nil when none.
    public var path: String?
    /// The 1-based line in ``path``, when known.
    public var line: Int?
    /// What happened and, where there is one, what to do about it.
    public var message: String

    /// An error of kind `code`; `path` and `line` locate it.
    public init(_ code: Code, path: String? = nil, line: Int? = nil, message: String) {
        self.code = code
        self.path = path
        self.line = line
        self.message = message
    }

    /// `PATH:LINE: error: MESSAGE`, `PATH: error: MESSAGE` or `versionstamp: error: MESSAGE`.
    public var description: String {
        guard let path else { return "versionstamp: error: \(message)" }
        if let line { return "\(path):\(line): error: \(message)" }
        return "\(path): error: \(message)"
    }
}

extension VersionStampError {
    /// An object of the repository's history that cannot be read as what it should be (a
    /// commit without a tree line, a malformed tree, an object of the wrong kind).
    static func unreadableHistory(_ what: String) -> VersionStampError {
        VersionStampError(
            .gitFailure, message: "the repository's history cannot be read: \(what); check it with 'git fsck'")
    }

    /// A plist that declares or uses the entity `name` (refused, never expanded).
    static func entityDeclaration(path: String, line: Int?, name: String) -> VersionStampError {
        VersionStampError(
            .entityDeclaration, path: path, line: line,
            message:
                "the plist declares or uses the entity '\(name)'; entities are refused (versionstamp never expands entities, reads other files or the network)"
        )
    }

    /// A plist encoded as `name`, not UTF-8.
    static func unsupportedEncoding(_ name: String, path: String) -> VersionStampError {
        VersionStampError(
            .unsupportedPlist, path: path,
            message: "the plist is encoded as \(name); versionstamp edits UTF-8 plists only")
    }
}
