/// One `--set KEYPATH=FORMAT`: the string at a key path and the format it is set to.
public struct KeyAssignment: Equatable, Sendable {
    /// The string to set.
    public var keyPath: PlistKeyPath
    /// Its format (`{version}`, `{count}` …); nil uses the stamp's `--format` (or `{count}`).
    public var format: String?

    /// The string at `keyPath`, set to `format` (nil: the stamp's format).
    public init(_ keyPath: PlistKeyPath, format: String? = nil) {
        self.keyPath = keyPath
        self.format = format
    }

    /// Parses `KEYPATH=FORMAT`, split at the first `=` (a format may hold `=`, a key path
    /// cannot). Throws when there is no `=` (a usage error) or the key path is invalid.
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw VersionStampError(
                .usage,
                message: "--set '\(text)': expected KEYPATH=FORMAT, such as CFBundleShortVersionString={version}")
        }
        do {
            keyPath = try PlistKeyPath(parsing: String(text[..<equals]))
        } catch var error as VersionStampError {
            error.message = "--set '\(text)': " + error.message
            throw error
        }
        format = String(text[text.index(after: equals)...])
    }
}
