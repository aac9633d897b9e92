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

/// Decides what a stamp changes in one plist and produces the new file content.
enum PlistStamper {
    struct Result {
        /// The file's content after stamping (the original bytes when nothing changes).
        var contents: Data
        /// The strings whose value changes (a string already holding the value is not listed).
        var changes: [PlistChange]
    }

    /// One string the stamp sets.
    private struct Planned {
        var path: PlistKeyPath
        var string: PlistString
        var edit: PlistStringEdit
    }

    /// What stamping `document` changes. `format` is `--format` (nil: the mode's default);
    /// with `force`, a build-setting reference (`$(NAME)`) is overwritten instead of refused.
    static func stamp(
        _ document: PlistDocument, mode: StampMode, format: String?,
        context: VersionContext, dirtyMarker: String, force: Bool = false
    ) throws -> Result {
        let planned: [Planned]
        switch try resolved(mode, in: document) {
        case let .placeholder(token):
            let value = try context.render(format ?? StampMode.defaultPlaceholderFormat, dirtyMarker: dirtyMarker)
            planned = try placeholderEdits(token, value: value, in: document)
        case let .keys(keyPaths):
            let value = try context.render(format ?? StampMode.defaultKeyFormat, dirtyMarker: dirtyMarker)
            planned = try keyEdits(keyPaths.map { ($0, value) }, in: document)
        case let .assignments(assignments):
            var rendered: [String: String] = [:]
            var values: [(PlistKeyPath, String)] = []
            for assignment in assignments {
                let itsFormat = assignment.format ?? format ?? StampMode.defaultKeyFormat
                if rendered[itsFormat] == nil {
                    rendered[itsFormat] = try context.render(itsFormat, dirtyMarker: dirtyMarker)
                }
                // Rendered[itsFormat] was set just above when it was missing.
                // swift-format-ignore: NeverForceUnwrap
                values.append((assignment.keyPath, rendered[itsFormat]!))
            }
            planned = try keyEdits(values, in: document)
        case .automatic:
            preconditionFailure("resolved above")
        }
        if !force { try checkBuildSettingReferences(planned, in: document) }
        try checkAppStoreRule(planned, in: document)
        let effective = planned.filter { $0.edit.newValue != $0.string.value }
        let contents = try document.applying(effective.map(\.edit))
        let changes = effective.map {
            PlistChange(keyPath: $0.path, oldValue: $0.string.value, newValue: $0.edit.newValue, line: $0.string.line)
        }
        return Result(contents: contents, changes: changes)
    }

    /// Automatic mode decided for this file: placeholder mode when a string holds the
    /// placeholder, else key mode on `CFBundleVersion`; neither is an error naming both.
    private static func resolved(_ mode: StampMode, in document: PlistDocument) throws -> StampMode {
        guard case let .automatic(token) = mode else { return mode }
        let root = document.root
        if root.strings().contains(where: { $0.string.value.containsBytes(of: token) }) {
            return .placeholder(token)
        }
        if case .missing = root.lookup(.bundleVersion) {
            throw VersionStampError(
                .neitherPlaceholderNorKey, path: document.path,
                message:
                    "contains neither the placeholder '\(token)' (in any string) nor the key '\(PlistKeyPath.bundleVersion)'; name the key with --key KEYPATH or the placeholder with --placeholder TOKEN"
            )
        }
        return .keys([.bundleVersion])
    }

    /// Every string holding `token`, with the token replaced by `value`.
    private static func placeholderEdits(_ token: String, value: String, in document: PlistDocument) throws -> [Planned]
    {
        let matches = document.root.strings().filter { $0.string.value.containsBytes(of: token) }
        guard !matches.isEmpty else {
            throw VersionStampError(
                .noPlaceholder, path: document.path, message: "no string contains the placeholder '\(token)'")
        }
        return matches.map { match in
            let newValue = match.string.value.replacingBytes(of: token, with: value)
            return Planned(
                path: match.path, string: match.string,
                edit: PlistStringEdit(slot: match.string.slot, newValue: newValue, placeholder: (token, value)))
        }
    }

    /// The string at each key path set to its value; a missing key or a non-string is an
    /// error. A string named twice keeps its first value.
    private static func keyEdits(_ values: [(PlistKeyPath, String)], in document: PlistDocument) throws -> [Planned] {
        var planned: [Planned] = []
        for (keyPath, value) in values {
            let string = try lookUpString(keyPath, in: document)
            if !planned.contains(where: { $0.string.slot == string.slot }) {
                planned.append(
                    Planned(path: keyPath, string: string, edit: PlistStringEdit(slot: string.slot, newValue: value)))
            }
        }
        return planned
    }

    /// The string at `keyPath`, or an error saying which part of the path is missing.
    private static func lookUpString(_ keyPath: PlistKeyPath, in document: PlistDocument) throws -> PlistString {
        switch document.root.lookup(keyPath) {
        case let .found(string):
            return string
        case let .notString(type, line):
            throw VersionStampError(
                .notAString, path: document.path, line: line,
                message: "the key '\(keyPath)' holds a <\(type)>, not a <string>")
        case let .missing(parent, component, container, line):
            let place = parent.components.isEmpty ? "the root \(container)" : "the \(container) at '\(parent)'"
            let reason: String
            switch container {
            case "dict": reason = "\(place) has no key '\(component)'"
            case "array": reason = "\(place) has no item \(component)"
            default: reason = "\(place) is not a dict or array"
            }
            throw VersionStampError(
                .missingKey, path: document.path, line: line, message: "key '\(keyPath)' not found: \(reason)")
        }
    }

    /// Refuses to replace a value that is wholly an Xcode build-setting reference: stamping
    /// it would detach the plist from the setting (which is what should be written).
    private static func checkBuildSettingReferences(_ planned: [Planned], in document: PlistDocument) throws {
        for item in planned where item.edit.placeholder == nil && item.edit.newValue != item.string.value {
            guard let setting = BuildSettingReference.settingName(in: item.string.value) else { continue }
            throw VersionStampError(
                .buildSettingReference, path: document.path, line: item.string.line,
                message:
                    "'\(item.path)' is \(item.string.value), a reference to the build setting \(setting); stamping it would detach the plist from the setting. Write the setting instead with --xcconfig FILE (it sets CURRENT_PROJECT_VERSION and MARKETING_VERSION), or pass --force to overwrite the reference"
            )
        }
    }

    /// The App Store rule on the root Info.plist keys, whatever the mode.
    private static func checkAppStoreRule(_ planned: [Planned], in document: PlistDocument) throws {
        guard case .dictionary = document.root else { return }
        for item in planned where item.path.components.count == 1 {
            if let violation = AppStoreVersionRule.violation(key: item.path.components[0], value: item.edit.newValue) {
                throw VersionStampError(.appStoreRule, path: document.path, line: item.string.line, message: violation)
            }
        }
    }
}

/// Xcode build-setting references in plist values: `$(CURRENT_PROJECT_VERSION)`,
/// `${MARKETING_VERSION}`, `$(PRODUCT_NAME:rfc1034identifier)`.
enum BuildSettingReference {
    /// The setting's name when `value` is wholly one reference, nil otherwise (text around a
    /// reference, or several, is a value of its own).
    static func settingName(in value: String) -> String? {
        let scalars = Array(value.unicodeScalars)
        guard scalars.count >= 4, scalars[0] == "$" else { return nil }
        let close: Unicode.Scalar
        switch scalars[1] {
        case "(": close = ")"
        case "{": close = "}"
        default: return nil
        }
        guard scalars[scalars.count - 1] == close else { return nil }
        let inner = scalars[2..<(scalars.count - 1)]
        // NAME, optionally followed by `:modifier` operators.
        let nameEnd = inner.firstIndex(of: ":") ?? inner.endIndex
        let name = inner[inner.startIndex..<nameEnd]
        guard let first = name.first, first == "_" || isLetter(first),
            name.allSatisfy({ $0 == "_" || isLetter($0) || ($0 >= "0" && $0 <= "9") }),
            !inner[nameEnd...].contains(where: { $0 == "(" || $0 == ")" || $0 == "{" || $0 == "}" || $0 == "$" })
        else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: name)
        return text
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z")
    }
}
