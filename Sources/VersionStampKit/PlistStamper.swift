import Foundation

/// How `stamp` chooses the strings to set in a plist.
public enum StampMode: Equatable, Sendable {
    /// Replace `token` inside every string value that contains it (default format `r{count}{dirty}`).
    case placeholder(String)
    /// Set the string at each key path (default format `{count}`); a missing key is an error.
    case keys([PlistKeyPath])
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

/// One string a stamp sets to a new value.
public struct PlistChange: Equatable, Sendable {
    public var keyPath: PlistKeyPath
    public var oldValue: String
    public var newValue: String
    /// The line of the string in an XML plist.
    public var line: Int?

    public init(keyPath: PlistKeyPath, oldValue: String, newValue: String, line: Int? = nil) {
        self.keyPath = keyPath
        self.oldValue = oldValue
        self.newValue = newValue
        self.line = line
    }
}

/// Decides what a stamp changes in one plist and produces the new file content.
enum PlistStamper {
    struct Result {
        /// The file's content after stamping (the original bytes when nothing changes).
        var contents: Data
        /// The strings whose value changes (a string already holding the value is not listed).
        var changes: [PlistChange]
    }

    static func stamp(_ document: PlistDocument, mode: StampMode, format: String?,
                      context: VersionContext, dirtyMarker: String) throws -> Result {
        let root = document.root
        let path = document.path
        var resolved = mode
        if case let .automatic(token) = mode {
            if root.strings().contains(where: { $0.string.value.containsBytes(of: token) }) {
                resolved = .placeholder(token)
            } else if case .missing = root.lookup(.bundleVersion) {
                throw VersionStampError(path: path, message: "contains neither the placeholder '\(token)' (in any string) nor the key '\(PlistKeyPath.bundleVersion)'; name the key with --key KEYPATH or the placeholder with --placeholder TOKEN")
            } else {
                resolved = .keys([.bundleVersion])
            }
        }

        var planned: [(path: PlistKeyPath, string: PlistString, edit: PlistStringEdit)] = []
        switch resolved {
        case let .placeholder(token):
            let value = try context.render(format ?? StampMode.defaultPlaceholderFormat, dirtyMarker: dirtyMarker)
            let matches = root.strings().filter { $0.string.value.containsBytes(of: token) }
            guard !matches.isEmpty else {
                throw VersionStampError(path: path, message: "no string contains the placeholder '\(token)'")
            }
            for match in matches {
                let newValue = match.string.value.replacingBytes(of: token, with: value)
                planned.append((match.path, match.string,
                                PlistStringEdit(slot: match.string.slot, newValue: newValue, placeholder: (token, value))))
            }
        case let .keys(keyPaths):
            let value = try context.render(format ?? StampMode.defaultKeyFormat, dirtyMarker: dirtyMarker)
            for keyPath in keyPaths {
                switch root.lookup(keyPath) {
                case let .found(string):
                    if !planned.contains(where: { $0.string.slot == string.slot }) {
                        planned.append((keyPath, string, PlistStringEdit(slot: string.slot, newValue: value)))
                    }
                case let .notString(type, line):
                    throw VersionStampError(path: path, line: line,
                                            message: "the key '\(keyPath)' holds a <\(type)>, not a <string>")
                case let .missing(parent, component, container, line):
                    let place = parent.components.isEmpty ? "the root \(container)" : "the \(container) at '\(parent)'"
                    let reason: String
                    switch container {
                    case "dict": reason = "\(place) has no key '\(component)'"
                    case "array": reason = "\(place) has no item \(component)"
                    default: reason = "\(place) is not a dict or array"
                    }
                    throw VersionStampError(path: path, line: line, message: "key '\(keyPath)' not found: \(reason)")
                }
            }
        case .automatic:
            preconditionFailure("resolved above")
        }

        // App Store rule on the root Info.plist keys, whatever the mode.
        if case .dictionary = root {
            for item in planned where item.path.components.count == 1 {
                if let violation = AppStoreVersionRule.violation(key: item.path.components[0], value: item.edit.newValue) {
                    throw VersionStampError(path: path, line: item.string.line, message: violation)
                }
            }
        }

        let effective = planned.filter { $0.edit.newValue != $0.string.value }
        let contents = try document.applying(effective.map(\.edit))
        let changes = effective.map {
            PlistChange(keyPath: $0.path, oldValue: $0.string.value, newValue: $0.edit.newValue, line: $0.string.line)
        }
        return Result(contents: contents, changes: changes)
    }
}
