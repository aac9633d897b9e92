import Foundation
import ShipyardTestSupport

/// Type-checks ``SwiftSnippet``s with the toolchain's `swiftc -typecheck` against the modules
/// `swift build` left in the build directory (the package's libraries, as an app imports them),
/// PackageDescription for manifests, and the Apple framework stubs for Apple-only code. Nothing
/// is compiled to code or linked, so a snippet takes a fraction of a second.
final class SwiftTypeChecker {
    let repository: URL
    private let work: TemporaryDirectory
    private let swiftc: String
    private let moduleArguments: [String]
    private var stubModules: URL?
    private var buildVersionFile: URL?

    init(repository: URL) throws {
        self.repository = repository
        work = try TemporaryDirectory("shipyard-doc-snippets")
        swiftc = try Self.executable("swiftc")
        moduleArguments = try Self.moduleArguments(repository: repository)
    }

    /// The diagnostics of `snippet`, each located at its Markdown line, or nil when it type-checks.
    func problems(of snippet: SwiftSnippet) throws -> String? {
        if case .excerpt = snippet.context { return snippet.excerptProblem(repository: repository) }
        let (text, origins) = snippet.source
        let directory = work.url(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = ["-typecheck", "-module-cache-path", work.url("module-cache").path]
        var files: [URL] = []
        let main: URL
        switch snippet.context {
        case .manifest:
            main = directory.appendingPathComponent("Package.swift")
            arguments += [
                "-I", Self.toolchainLibrary(swiftc).appendingPathComponent("pm/ManifestAPI").path,
                "-package-description-version", "5.9",
            ]
        default:
            let declaresMain = text.contains("@main")
            main = directory.appendingPathComponent(declaresMain ? "Snippet.swift" : "main.swift")
            if declaresMain { arguments.append("-parse-as-library") }
            arguments += moduleArguments
            files.append(try write(Self.resourceAccessor, to: directory.appendingPathComponent("Bundle+module.swift")))
            if snippet.needsBuildVersion { files.append(try buildVersion()) }
            if snippet.apple { arguments += ["-I", try stubs().path] }
        }
        try write(text, to: main)
        let result = try ProcessRunner.run(swiftc, arguments + [main.path] + files.map(\.path))
        var output = result.stdoutText + result.stderrText
        guard result.status != 0 || Self.hasWarning(output) else { return nil }
        for (index, origin) in origins.enumerated().reversed() {
            output = output.replacingOccurrences(of: "\(main.path):\(index + 1):", with: "\(origin):")
        }
        return "\(snippet.place): the Swift does not type-check:\n" + output
    }

    /// Whether `output` warns of something other than a value never used (which a snippet that
    /// shows a result without using it does on purpose): a `try` that throws nothing, a deprecated call.
    static func hasWarning(_ output: String) -> Bool {
        output.components(separatedBy: "\n").contains { line in
            line.contains(": warning: ") && !line.contains("was never used") && !line.contains("never mutated")
                && !line.contains("is unused")
        }
    }

    /// What SwiftPM generates in a target with resources (`resource_bundle_accessor.swift`).
    static let resourceAccessor = """
        import Foundation

        extension Foundation.Bundle {
            /// The target's resources, as SwiftPM's generated accessor gives them.
            static let module: Bundle = Bundle.main
        }

        """

    @discardableResult
    private func write(_ text: String, to url: URL) throws -> URL {
        try Data(text.utf8).write(to: url)
        return url
    }

    /// `BuildVersion.swift` as VersionConstantsBuildToolPlugin generates it (`versionstamp stamp
    /// --swift`), once.
    private func buildVersion() throws -> URL {
        if let buildVersionFile { return buildVersionFile }
        let file = work.url("BuildVersion.swift")
        let result = try BuiltProducts.run(
            "versionstamp", ["stamp", "--quiet", "--swift", file.path], in: repository,
            environment: ["VERSIONSTAMP_VERSION": "1.0.0"])
        guard result.status == 0 else {
            throw SnippetCheckFailure("versionstamp stamp --swift failed: \(result.stderrText)")
        }
        buildVersionFile = file
        return file
    }

    /// The Apple framework stubs compiled into modules, once.
    private func stubs() throws -> URL {
        if let stubModules { return stubModules }
        let directory = work.url("apple-stubs")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sources = repository.appendingPathComponent("Tests/DocumentationTests/AppleStubs")
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        where name.hasSuffix(".swift") {
            let module = String(name.dropLast(".swift".count))
            let result = try ProcessRunner.run(
                swiftc,
                [
                    "-emit-module", "-parse-as-library", "-module-name", module, "-module-cache-path",
                    work.url("module-cache").path, "-emit-module-path",
                    directory.appendingPathComponent("\(module).swiftmodule").path,
                    sources.appendingPathComponent(name).path,
                ], in: directory)
            guard result.status == 0 else {
                throw SnippetCheckFailure("the stub \(name) does not compile: \(result.stderrText)")
            }
        }
        stubModules = directory
        return directory
    }

    /// Where the package's modules are: the build directory's `Modules`, the system libraries'
    /// module maps (with their pkg-config flags), and the module maps SwiftPM generated for the
    /// C targets.
    private static func moduleArguments(repository: URL) throws -> [String] {
        let build = BuiltProducts.directory
        var arguments = ["-I", build.appendingPathComponent("Modules").path]
        let sources = repository.appendingPathComponent("Sources")
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        where FileManager.default.fileExists(atPath: sources.appendingPathComponent("\(name)/module.modulemap").path) {
            arguments += ["-I", sources.appendingPathComponent(name).path]
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: build.path).sorted()
        where name.hasSuffix(".build") && !name.hasSuffix("-tool.build") {
            let map = build.appendingPathComponent("\(name)/module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) {
                arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
        }
        let manifest = try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let packages = manifest.components(separatedBy: "pkgConfig: \"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
        if !packages.isEmpty {
            let result = try ProcessRunner.run(try executable("pkg-config"), ["--cflags"] + packages)
            guard result.status == 0 else {
                throw SnippetCheckFailure(
                    "pkg-config --cflags \(packages.joined(separator: " ")): \(result.stderrText)")
            }
            for flag in result.stdoutText.split(whereSeparator: \.isWhitespace) { arguments += ["-Xcc", String(flag)] }
        }
        return arguments
    }

    /// `usr/lib/swift` of the toolchain `swiftc` belongs to.
    private static func toolchainLibrary(_ swiftc: String) -> URL {
        URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lib/swift")
    }

    /// The absolute path of `name` on PATH.
    static func executable(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw SnippetCheckFailure("\(name) is not on PATH (\(path))")
    }
}

/// The checker itself could not run.
struct SnippetCheckFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
