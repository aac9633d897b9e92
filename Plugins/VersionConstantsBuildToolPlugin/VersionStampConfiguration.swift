import Foundation
import PackagePlugin

/// The release-numbering options of the generated version constants, read from a
/// `versionstamp.json` beside the target's sources (else at the package root):
///
/// ```json
/// { "format": "{version}+{count}", "tagPattern": "v*", "firstParent": true,
///   "paths": ["Sources/App"], "offset": 1000, "buildNumberEnv": "CI_BUILD_NUMBER" }
/// ```
///
/// Each key is the `versionstamp stamp` option of the same name; `paths` are relative to the
/// package (or Xcode project) directory. A build-tool plugin takes no arguments from the
/// manifest, so this file is how a package passes them (as SwiftLint and swift-format read
/// theirs).
struct VersionStampConfiguration {
    static let fileName = "versionstamp.json"

    /// The file read, nil when there is none (the defaults: `{count}`, whole history).
    let file: Path?
    /// The options for `versionstamp stamp`.
    let arguments: [String]
    /// `buildNumberEnv`: the variable whose value the build command must be given.
    let buildNumberVariable: String?

    /// The first `versionstamp.json` found in `directories`, or the defaults.
    static func searching(_ directories: [Path]) throws -> VersionStampConfiguration {
        guard let found = directories.map({ $0.appending(Self.fileName) })
            .first(where: { FileManager.default.fileExists(atPath: $0.string) }) else {
            return VersionStampConfiguration(file: nil, arguments: [], buildNumberVariable: nil)
        }
        return try VersionStampConfiguration(file: found)
    }

    private init(file: Path?, arguments: [String], buildNumberVariable: String?) {
        self.file = file
        self.arguments = arguments
        self.buildNumberVariable = buildNumberVariable
    }

    /// The keys, each typed as the option it stands for.
    private struct Settings: Decodable {
        static let keys: Set<String> = ["format", "tagPattern", "firstParent", "paths", "offset", "buildNumberEnv"]
        var format: String?
        var tagPattern: String?
        var firstParent: Bool?
        var paths: [String]?
        var offset: Int?
        var buildNumberEnv: String?
    }

    /// Reads `file`; throws naming the file and the key when it is not what is expected.
    init(file: Path) throws {
        self.file = file
        let settings: Settings
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: file.string))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ConfigurationError(file: file, message: "expected a JSON object of options")
            }
            if let unknown = object.keys.sorted().first(where: { !Settings.keys.contains($0) }) {
                throw ConfigurationError(file: file, message: "unknown key '\(unknown)'; the keys are \(Settings.keys.sorted().joined(separator: ", "))")
            }
            settings = try JSONDecoder().decode(Settings.self, from: data)
            for (key, value) in [("format", settings.format), ("tagPattern", settings.tagPattern), ("buildNumberEnv", settings.buildNumberEnv)]
            where value?.isEmpty == true {
                throw ConfigurationError(file: file, message: "'\(key)' must not be empty")
            }
        } catch let error as ConfigurationError {
            throw error
        } catch let error as DecodingError {
            throw ConfigurationError(file: file, message: Self.expectation(error))
        } catch {
            throw ConfigurationError(file: file, message: "not valid JSON: \(error.localizedDescription)")
        }
        var arguments: [String] = []
        if let format = settings.format { arguments += ["--format", format] }
        if let pattern = settings.tagPattern { arguments += ["--tag-pattern", pattern] }
        if settings.firstParent == true { arguments.append("--first-parent") }
        for path in settings.paths ?? [] { arguments += ["--path", path] }
        if let offset = settings.offset { arguments.append("--offset=\(offset)") }
        if let variable = settings.buildNumberEnv { arguments += ["--build-number-env", variable] }
        self.arguments = arguments
        self.buildNumberVariable = settings.buildNumberEnv
    }
}

extension VersionStampConfiguration {
    /// What the key a decoding error is about must hold.
    fileprivate static func expectation(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case let .typeMismatch(_, found), let .valueNotFound(_, found), let .dataCorrupted(found): context = found
        case let .keyNotFound(_, found): context = found
        @unknown default: return "cannot read it: \(error)"
        }
        guard let key = context.codingPath.first?.stringValue else { return "expected a JSON object of options" }
        let expected = ["firstParent": "true or false", "offset": "an integer", "paths": "an array of strings"][key] ?? "a string"
        return "'\(key)' must be \(expected)"
    }
}

/// A `versionstamp.json` the plugin cannot use.
struct ConfigurationError: Error, CustomStringConvertible {
    let file: Path
    let message: String
    var description: String { "\(file.string): error: \(message)" }
}
