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
import ToolConfiguration

/// Release-numbering options kept in a JSON file, `versionstamp.json`, read by `versionstamp`
/// when it runs (`--config FILE`), so a build system never freezes them: the way to give
/// options to the SwiftPM build-tool plugin, which takes no arguments from `Package.swift`.
///
/// ```json
/// { "format": "{version}+{count}", "tagPattern": "v*", "firstParent": true,
///   "paths": ["Sources/App"], "offset": 1000, "buildNumberEnv": "CI_BUILD_NUMBER" }
/// ```
///
/// Each key is the `print` / `stamp` option of the same name and stands in for it when the
/// command line does not give it (`paths` resolve like `--path`). An unknown key, a value of
/// the wrong type or an empty string is an error naming the file, line and key.
public struct VersionStampConfiguration: Decodable, Equatable, Sendable {
    /// `--format`.
    public var format: String?
    /// `--tag-pattern`.
    public var tagPattern: String?
    /// `--first-parent`.
    public var firstParent: Bool?
    /// `--path`, in order.
    public var paths: [String]?
    /// `--offset`.
    public var offset: Int?
    /// `--build-number-env`.
    public var buildNumberEnv: String?

    /// The keys a configuration file may hold.
    public static let keys: Set<String> = ["format", "tagPattern", "firstParent", "paths", "offset", "buildNumberEnv"]

    /// A configuration; nil leaves the option to the command line.
    public init(
        format: String? = nil, tagPattern: String? = nil, firstParent: Bool? = nil,
        paths: [String]? = nil, offset: Int? = nil, buildNumberEnv: String? = nil
    ) {
        self.format = format
        self.tagPattern = tagPattern
        self.firstParent = firstParent
        self.paths = paths
        self.offset = offset
        self.buildNumberEnv = buildNumberEnv
    }

    /// Reads the file at `path` (named `displayPath` in errors).
    ///
    /// - Throws: ``VersionStampError`` with code ``VersionStampError/Code/invalidConfiguration``
    ///   (or ``VersionStampError/Code/fileAccess`` when the file cannot be read), naming the
    ///   file and the line of the offending key.
    public static func load(from path: String, displayPath: String? = nil) throws -> VersionStampConfiguration {
        let configuration: VersionStampConfiguration
        do {
            configuration = try ConfigurationFile.decode(
                VersionStampConfiguration.self, at: path, displayPath: displayPath, keys: keys,
                expectations: ["firstParent": "true or false", "offset": "an integer", "paths": "an array of strings"])
        } catch let error as ConfigurationFileError {
            throw VersionStampError(
                error.line == nil ? .fileAccess : .invalidConfiguration,
                path: error.line == nil ? nil : error.path, line: error.line, message: error.message)
        }
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        let strings: [(String, String?)] = [
            ("format", configuration.format), ("tagPattern", configuration.tagPattern),
            ("buildNumberEnv", configuration.buildNumberEnv),
        ]
        for (key, value) in strings where value?.isEmpty == true {
            throw VersionStampError(
                .invalidConfiguration, path: displayPath ?? path,
                line: ConfigurationFile.line(ofKey: key, in: text), message: "'\(key)' must not be empty")
        }
        if configuration.paths?.contains(where: \.isEmpty) == true {
            throw VersionStampError(
                .invalidConfiguration, path: displayPath ?? path,
                line: ConfigurationFile.line(ofKey: "paths", in: text), message: "'paths' must not hold an empty path")
        }
        return configuration
    }

    /// `query` with the file's history options where the command line gave none.
    public func filling(_ query: RevisionQuery) -> RevisionQuery {
        RevisionQuery(
            tagPattern: query.tagPattern ?? tagPattern,
            firstParent: query.firstParent || firstParent == true,
            paths: query.paths.isEmpty ? paths ?? [] : query.paths)
    }

    /// `buildNumber` with the file's offset and variable where the command line gave none
    /// (`givenOffset` false: no `--offset` on the command line).
    public func filling(_ buildNumber: BuildNumber, givenOffset: Bool) -> BuildNumber {
        BuildNumber(
            offset: givenOffset ? buildNumber.offset : offset ?? buildNumber.offset,
            environmentVariable: buildNumber.environmentVariable ?? buildNumberEnv)
    }
}
