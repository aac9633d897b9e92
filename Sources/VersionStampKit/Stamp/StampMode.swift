/// How `stamp` chooses the strings to set in a plist.
public enum StampMode: Equatable, Sendable {
    /// Replace `token` inside every string value that contains it (default format `r{count}{dirty}`).
    case placeholder(String)
    /// Set the string at each key path (default format `{count}`); a missing key is an error.
    case keys([PlistKeyPath])
    /// Set the string at each key path to its own format (`--set KEYPATH=FORMAT`; a nil
    /// format is the stamp's `--format`, or `{count}`); a missing key is an error.
    case assignments([KeyAssignment])
    /// Per file: placeholder mode when a string contains `placeholder`, otherwise key mode on
    /// `CFBundleVersion`; a file with neither is an error naming both.
    case automatic(placeholder: String)

    /// The placeholder of the original workflow's `version.plist`.
    public static let defaultPlaceholder = "r0000"
    /// The format of placeholder mode when `--format` is not given.
    public static let defaultPlaceholderFormat = "r{count}{dirty}"
    /// The format of key mode when `--format` is not given.
    public static let defaultKeyFormat = "{count}"
}
