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
import EssentialsSupport

/// A tool's options kept in a small JSON file (`dbgen.json`, `versionstamp.json`), read by the
/// tool when it runs, so a build system never freezes them: one reader for both tools, whose
/// errors name the file, the line of the offending key and what the key must hold.
///
/// Each key is one option; an unknown key, a value of the wrong type and text that is not a
/// JSON object are errors (a misspelt option is never ignored).
package enum ConfigurationFile {
    /// Decodes `type` from the JSON object in the file at `path`, accepting only `keys`.
    ///
    /// - Parameters:
    ///   - displayPath: How to name the file in errors (as the user gave it).
    ///   - expectations: What each key must hold, for the error of a wrong type
    ///     (`"true or false"`, `"an integer"`); keys not listed read "a string".
    /// - Throws: ``ConfigurationFileError``.
    package static func decode<Settings: Decodable>(
        _ type: Settings.Type, at path: String, displayPath: String? = nil,
        keys: Set<String>, expectations: [String: String] = [:]
    ) throws -> Settings {
        let shown = displayPath ?? path
        guard FileManager.default.isDirectory(atPath: path) == false,
            let data = FileManager.default.contents(atPath: path)
        else {
            throw ConfigurationFileError(
                path: shown, line: nil, message: "cannot read the configuration file \"\(shown)\": no such file")
        }
        let text = String(decoding: data, as: UTF8.self)
        let dictionary: [String: IgnoredValue]
        do {
            dictionary = try JSONDecoder().decode([String: IgnoredValue].self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ConfigurationFileError(
                path: shown, line: 1,
                message: "expected a JSON object of options, such as {\"\(keys.sorted().first ?? "key")\": …}")
        } catch {
            let syntax = JSONSyntaxError.find(in: Array(data))
            let reason = syntax.map { "\($0.problem) at line \($0.line), column \($0.column)" } ?? Self.reason(error)
            throw ConfigurationFileError(path: shown, line: syntax?.line ?? 1, message: "not valid JSON (\(reason))")
        }
        if let unknown = dictionary.keys.sorted().first(where: { !keys.contains($0) }) {
            throw ConfigurationFileError(
                path: shown, line: line(ofKey: unknown, in: text),
                message: "unknown key '\(unknown)'; the keys are \(keys.sorted().joined(separator: ", "))")
        }
        do {
            return try JSONDecoder().decode(Settings.self, from: data)
        } catch let error as DecodingError {
            guard let key = Self.key(of: error) else {
                throw ConfigurationFileError(path: shown, line: nil, message: "cannot read it: \(error)")
            }
            throw ConfigurationFileError(
                path: shown, line: line(ofKey: key, in: text),
                message: "'\(key)' must be \(expectations[key] ?? "a string")")
        }
    }

    /// The 1-based line where `"key"` first appears as an object key, nil when not found.
    package static func line(ofKey key: String, in text: String) -> Int? {
        let needle = "\"\(key)\""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains(needle) {
            return index + 1
        }
        return nil
    }

    /// The top-level key a decoding error is about.
    private static func key(of error: DecodingError) -> String? {
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return context.codingPath.first?.stringValue
        case let .keyNotFound(key, _):
            return key.stringValue
        @unknown default:
            return nil
        }
    }

    /// What JSONDecoder says of data that is not JSON, when JSONSyntaxError finds nothing.
    private static func reason(_ error: Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
        return context.debugDescription
    }

    /// Any JSON value, read for the keys of the object that holds it and nothing more.
    private struct IgnoredValue: Decodable {
        init(from decoder: Decoder) throws {}
    }
}

/// A configuration file that cannot be used: where, and why.
package struct ConfigurationFileError: Error, Equatable, CustomStringConvertible {
    /// The file, as the user named it.
    package var path: String
    /// The 1-based line of the offending key (or of a syntax error), nil when the file itself
    /// cannot be read (``message`` then names it).
    package var line: Int?
    /// What is wrong and what is expected.
    package var message: String

    package init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `PATH:LINE: error: MESSAGE`, or `PATH: error: MESSAGE` when the file cannot be read.
    package var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): error: \(message)"
    }
}
