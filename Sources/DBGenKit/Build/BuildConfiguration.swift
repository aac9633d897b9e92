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

/// A build's options kept in a JSON file, `dbgen.json`, read when the build runs (so a build
/// system that runs dbgen never freezes them): the way to give options to the SwiftPM
/// build-tool plugin, which takes no arguments from `Package.swift`.
///
/// ```json
/// { "strict": true }
/// ```
///
/// Each key is the `dbgen build` option of the same name; an option given on the command line
/// as well applies in either case (`--strict` or `"strict": true` makes the build strict).
/// An unknown key or a value of the wrong type is an error naming the file, line and key.
public struct BuildConfiguration: Decodable, Equatable, Sendable {
    /// `--strict`: warnings are errors.
    public var strict: Bool?

    /// The keys a configuration file may hold.
    public static let keys: Set<String> = ["strict"]

    /// An empty configuration (every option as the command line says).
    public init(strict: Bool? = nil) {
        self.strict = strict
    }

    /// Reads the configuration file at `path` (shown as `displayPath` in errors).
    ///
    /// - Throws: ``DBGenError`` with code ``DBGenError/Code/configuration``, located at the
    ///   file and the line of the offending key (no location when the file cannot be read:
    ///   the message names it).
    public static func load(from path: String, displayPath: String? = nil) throws -> BuildConfiguration {
        do {
            return try ConfigurationFile.decode(
                BuildConfiguration.self, at: path, displayPath: displayPath,
                keys: keys, expectations: ["strict": "true or false"])
        } catch let error as ConfigurationFileError {
            throw DBGenError(
                .configuration, error.message, at: error.line.map { SourceLocation(path: error.path, line: $0) })
        }
    }

    /// `options` with this configuration's settings applied.
    func applied(to options: BuildOptions) -> BuildOptions {
        var options = options
        if strict == true { options.strict = true }
        return options
    }
}
