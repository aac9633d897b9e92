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

/// What a build is asked to do, and where its warnings and progress go.
public struct BuildOptions {
    /// The schema script, as given (relative to the current directory, or absolute).
    public var schema: String
    /// The output database, as given.
    public var output: String
    /// Rebuild even when no input changed since the last build.
    public var force = false
    /// Warnings become errors (``DBGenError/Code/warningAsError``).
    public var strict = false
    /// Where to write a Makefile-style dependency file listing every input, if anywhere.
    /// The build's up-to-date record is kept beside it.
    public var depfile: String?
    /// Where the build's up-to-date record is kept when there is no depfile (never beside
    /// the output, which an app ships): by default the user's cache directory
    /// (``systemCacheDirectory``); nil keeps none, so every build runs.
    public var cacheDirectory: String? = BuildOptions.systemCacheDirectory
    /// A JSON file of options (`dbgen.json`, see ``BuildConfiguration``), read when the build
    /// runs; its settings add to the ones above.
    public var configurationFile: String?
    /// The directories a build system watches for this build (absolute, or relative to the
    /// current directory). When not empty, every file the script reads must lie under one of
    /// them: a file outside is an error naming the line that read it, so a build system that
    /// declares these directories' files as the build's inputs can never skip a build it
    /// should run. Empty: any file may be read.
    public var inputRoots: [String] = []
    /// Receives every warning as it happens (`food.csv:12: warning: expected 5 columns…`).
    /// Errors are thrown by the build, not passed here.
    public var diagnosticHandler: ((Diagnostic) -> Void)?
    /// Receives the progress of each `.import` now and then (a caller may draw a progress bar).
    public var progressHandler: ((ImportProgress) -> Void)?

    /// Options for building `output` from `schema`.
    public init(schema: String, output: String) {
        self.schema = schema
        self.output = output
    }

    /// The schema path used when none is given: `schema/schema.txt`.
    public static let defaultSchema = "schema/schema.txt"

    /// The default output for `schema`: its base name with `.sqlite`, in the current directory.
    public static func defaultOutput(forSchema schema: String) -> String {
        let base = PathText.deletingExtension(PathText.lastComponent(schema))
        return (base.isEmpty ? "schema" : base) + ".sqlite"
    }

    /// `dbgen` in the user's cache directory: `~/Library/Caches/dbgen` on macOS,
    /// `$XDG_CACHE_HOME/dbgen` or `~/.cache/dbgen` elsewhere (as Foundation finds it).
    public static var systemCacheDirectory: String? {
        #if canImport(FoundationEssentials) && os(Linux)
        // FoundationEssentials' own rule (an absolute XDG_CACHE_HOME, else HOME's .cache), read
        // with getenv: FileManager.urls(for:in:) copies the whole environment into a dictionary
        // twice, a tenth of a no-op build's instructions.
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let cache = variable("XDG_CACHE_HOME"), cache.unicodeScalars.first == "/" {
            return URL(filePath: cache, directoryHint: .isDirectory).appendingPathComponent("dbgen", isDirectory: true)
                .path
        }
        if let home = variable("HOME"), !home.isEmpty {
            return URL(filePath: home, directoryHint: .isDirectory).appending(
                component: ".cache", directoryHint: .isDirectory
            )
            .appendingPathComponent("dbgen", isDirectory: true).path
        }
        #endif
        return FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("dbgen", isDirectory: true).path
    }

    /// The cache directory `dbgen` uses: `$DBGEN_CACHE_DIR` from `environment` when set,
    /// else ``systemCacheDirectory``.
    public static func defaultCacheDirectory(environment: [String: String]) -> String? {
        if let explicit = environment["DBGEN_CACHE_DIR"], !explicit.isEmpty { return explicit }
        return systemCacheDirectory
    }

    /// The options that change the output or the build's verdict (part of the fingerprint, so
    /// a change of them makes the build run).
    var fingerprintOptions: [String] {
        (strict ? ["strict"] : []) + inputRoots.map { "input-root=\($0)" }
    }
}
