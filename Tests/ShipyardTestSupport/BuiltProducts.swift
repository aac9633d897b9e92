import Foundation

/// The package's executables (`dbgen`, `versionstamp`), as `swift build` left them beside the
/// test bundle.
public enum BuiltProducts {
    /// The directory holding the built products (next to the `.xctest` bundle).
    public static var directory: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of the built executable `name`.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Runs the built executable `name` with `arguments`.
    @discardableResult
    public static func run(
        _ name: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], removing: [String] = [], input: Data? = nil
    ) throws -> ProcessResult {
        try ProcessRunner.run(
            path(name), arguments, in: directory, environment: environment,
            removing: removing, input: input)
    }
}
