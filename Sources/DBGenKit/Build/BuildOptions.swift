import Foundation

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
    public var depfile: String?
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
        let base = ((schema as NSString).lastPathComponent as NSString).deletingPathExtension
        return (base.isEmpty ? "schema" : base) + ".sqlite"
    }

    /// The options that change the output (part of the fingerprint).
    var fingerprintOptions: [String] { strict ? ["strict"] : [] }
}
